// The summary apply step: a persisted summary stands in for the messages it covers. The summary goes
// where its start id was, the covered messages leave, the rest stay in order. A record is not applied
// (and the history is used as it is, with a warning) when it has no start id or its start id is
// missing, when a covered message is gone or was edited since (the fingerprint no longer matches), or
// when it overlaps a newer summary only in part; a record wholly inside a newer one was rolled into it
// and is simply superseded. Summary items already in the history (imported `kind: "summary"` messages)
// are applied the same way. The current turn (the newest user message and what follows it) is never
// covered: a summary that reaches into it is cut short before it, with a warning, so the request
// still carries what the user just wrote.
import { type DecisionRecorder, type Item, type ItemOf, type Items, positionsOf } from "@ctxpipe/core";
import type { SkippedSummary } from "../compression-report.js";
import { type CurrentTurnStart, currentTurnStart } from "./current-turn-start.js";
import { fingerprintOf } from "./fingerprint.js";
import { summaryItemOf } from "./summary-item.js";
import type { SummaryRecord } from "./summary-record.js";

export interface AppliedSummaries {
  readonly items: Items;
  readonly applied: string[];
  readonly skipped: SkippedSummary[];
}

interface Placement {
  readonly summary: ItemOf<"summary">;
  readonly covered: ReadonlyArray<string>;
  /** Position of the item the summary takes the place of. */
  readonly at: number;
  /** Whether the summary came from a record (then it is new to the list) or was an item of it. */
  readonly fromRecord: boolean;
  /** Why the summary covers less than it says, when it reached into the current turn. */
  readonly cutShort: string | undefined;
}

function coveredIdsOf(summary: ItemOf<"summary">, items: Items, positions: ReadonlyMap<string, number>): string[] {
  const ids = new Set(summary.coveredIds);
  if (summary.fromId !== undefined && summary.toId !== undefined) {
    const from = positions.get(summary.fromId);
    const to = positions.get(summary.toId);
    if (from !== undefined && to !== undefined) for (let position = from; position <= to; position++) ids.add(items[position]!.id);
  }
  ids.delete(summary.id);
  return [...ids].filter((id) => positions.has(id));
}

export interface ApplyHost {
  /** Where the decisions about one summary go. */
  recorderFor(summaryId: string): Omit<DecisionRecorder, "attach" | "as">;
  warn(message: string): void;
  /** Records made in this very build, by id: their summary items say so. */
  readonly madeNow: ReadonlyMap<string, string>;
  /** Whether a summary item is among the items, when the caller knows already (it keeps an index of the list). */
  readonly hasSummaryItem?: boolean;
}

export function applySummaries(items: Items, records: ReadonlyArray<SummaryRecord>, host: ApplyHost): AppliedSummaries {
  const hasSummaryItem = host.hasSummaryItem ?? items.some((item) => item.type === "summary");
  if (records.length === 0 && !hasSummaryItem) return { items, applied: [], skipped: [] };
  const positions = positionsOf(items);
  const current = currentTurnStart(items);
  const inCurrentTurn = (id: string) => current !== undefined && positions.get(id)! >= current.position;
  const coveredBy = new Map<string, string>();
  const placements: Placement[] = [];
  const applied: string[] = [];
  const skipped: SkippedSummary[] = [];
  const skip = (id: string, reason: string) => {
    skipped.push({ id, reason });
    host.warn(`summary "${id}" not applied: ${reason}; the history is used as it is`);
  };

  // Records first, newest first: a newer summary usually rolled the older ones into itself. A record
  // without a date (a message builder's summary record may have none) counts as the oldest.
  const newestFirst = records
    .map((record, index) => ({ record, index, time: record.createdAt === undefined ? Number.NEGATIVE_INFINITY : Date.parse(record.createdAt) }))
    .sort((left, right) => (left.time === right.time ? right.index - left.index : right.time - left.time));
  const seen = new Set<string>();
  for (const { record } of newestFirst) {
    if (seen.has(record.id)) {
      skip(record.id, "another record has the same id");
      continue;
    }
    seen.add(record.id);
    if (positions.has(record.id)) {
      if (items[positions.get(record.id)!]!.type !== "summary") skip(record.id, "its id is the id of a message in the history");
      continue;
    }
    if (record.startId === undefined) {
      skip(record.id, "it has no start id");
      continue;
    }
    if (!positions.has(record.startId)) {
      skip(record.id, `its start id "${record.startId}" is not in the history`);
      continue;
    }
    const missing = record.coveredIds.filter((id) => !positions.has(id));
    if (missing.length > 0) {
      skip(record.id, `it covers messages no longer in the history (${preview(missing)})`);
      continue;
    }
    if (record.fingerprint !== undefined) {
      const covered = record.coveredIds.map((id) => items[positions.get(id)!]!);
      if (!matchesFingerprint(covered, record.fingerprint)) {
        skip(record.id, "messages it covers were edited after it was made");
        continue;
      }
    }
    // A start id inside the current turn would put the summary between the user's message and the
    // answer: it goes before the newest user message instead.
    let at = positions.get(record.startId)!;
    const startInCurrentTurn = current !== undefined && at > current.position;
    if (startInCurrentTurn) at = current.position;
    let covered = record.coveredIds.filter((id) => !inCurrentTurn(id));
    const cut = record.coveredIds.length - covered.length;
    if (record.coveredIds.length === 0) {
      // A record listing no messages (a message builder's summary record may list none) stands in
      // for everything before its start id.
      covered = items.slice(0, at).flatMap((item) => (item.type === "system" || item.type === "summary" || coveredBy.has(item.id) ? [] : [item.id]));
      if (covered.length === 0) {
        skip(record.id, "it lists no messages and nothing comes before its start id");
        continue;
      }
    } else if (covered.length === 0) {
      skip(record.id, `it covers only the current turn (the newest user message "${current!.id}" and what follows it), which is always sent`);
      continue;
    }
    const overlap = covered.filter((id) => coveredBy.has(id));
    if (overlap.length === covered.length) continue; // rolled into a newer summary
    if (overlap.length > 0) {
      skip(record.id, `it overlaps summary "${coveredBy.get(overlap[0]!)}" in part`);
      continue;
    }
    for (const id of covered) coveredBy.set(id, record.id);
    const cutShort = cut > 0 || startInCurrentTurn ? cutShortReason(record.id, current!, cut, startInCurrentTurn, host) : undefined;
    const summary = summaryItemOf(covered === record.coveredIds || covered.length === record.coveredIds.length ? record : { ...record, coveredIds: covered });
    placements.push({ summary, covered, at, fromRecord: true, cutShort });
    applied.push(record.id);
  }
  // Then summaries stored in the history, unless a record rolled them in.
  for (let position = 0; position < items.length; position++) {
    const item = items[position]!;
    if (item.type !== "summary" || coveredBy.has(item.id)) continue;
    const reached = coveredIdsOf(item, items, positions).filter((id) => !coveredBy.has(id) && items[positions.get(id)!]!.type !== "summary");
    const covered = reached.filter((id) => !inCurrentTurn(id));
    if (covered.length === 0) {
      if (reached.length > 0) skip(item.id, `it covers only the current turn (the newest user message "${current!.id}" and what follows it), which is always sent`);
      continue;
    }
    for (const id of covered) coveredBy.set(id, item.id);
    let at = position;
    for (const id of covered) at = Math.min(at, positions.get(id)!);
    const cut = reached.length - covered.length;
    if (cut === 0) {
      placements.push({ summary: item, covered, at, fromRecord: false, cutShort: undefined });
    } else {
      // The stored range stays in the log; what is sent says what it now stands in for.
      const shortened = shortenedSummary(item, covered);
      const cutShort = cutShortReason(item.id, current!, cut, false, host);
      host.recorderFor(item.id).repair(shortened, cutShort);
      placements.push({ summary: shortened, covered, at, fromRecord: false, cutShort });
    }
    applied.push(item.id);
  }

  if (placements.length === 0) return { items, applied, skipped };

  // The apply step keeps only what comes from a summary's start id on: messages before the earliest start
  // that no summary covers are taken as covered by it. Stored system messages are left to the filter.
  const earliest = placements.reduce((first, placement) => (placement.at < first.at ? placement : first));
  const coveredByEarliest = new Set(earliest.covered);
  if (earliest.fromRecord) {
    for (let position = 0; position < earliest.at; position++) {
      const item = items[position]!;
      if (item.type === "system" || item.type === "summary" || coveredBy.has(item.id)) continue;
      coveredBy.set(item.id, earliest.summary.id);
    }
  }

  const placedAt = new Map<number, Placement[]>();
  for (const placement of placements) placedAt.set(placement.at, [...(placedAt.get(placement.at) ?? []), placement]);
  const placedIds = new Set(placements.filter((placement) => !placement.fromRecord).map((placement) => placement.summary.id));
  const result: Item[] = [];
  for (let position = 0; position < items.length; position++) {
    for (const placement of placedAt.get(position) ?? []) {
      result.push(placement.summary);
      if (!placement.fromRecord) continue;
      const made = host.madeNow.has(placement.summary.id)
        ? `summary of ${placement.covered.length} messages made in this build; persist it from report.compression.records`
        : `persisted summary of ${placement.covered.length} messages, applied in their place`;
      host.recorderFor(placement.summary.id).synthesize(placement.summary, placement.cutShort === undefined ? made : `${made}; ${placement.cutShort}`);
    }
    const item = items[position]!;
    const summaryId = coveredBy.get(item.id);
    if (summaryId !== undefined) {
      const before = position < earliest.at && !coveredByEarliest.has(item.id);
      host.recorderFor(summaryId).summarize(item, summaryId, before ? `before the start of summary "${summaryId}", which stands in for everything before it` : `covered by summary "${summaryId}"`);
      continue;
    }
    // A summary item moved up to where its covered messages began.
    if (placedIds.has(item.id)) continue;
    result.push(item);
  }
  return { items: result, applied, skipped };
}

/** Says (as a warning, and returns for the summary's report entry) that a summary was cut short before the current turn. */
function cutShortReason(summaryId: string, current: CurrentTurnStart, cut: number, startInCurrentTurn: boolean, host: ApplyHost): string {
  const parts: string[] = [];
  if (cut > 0) {
    const more = cut === 1 ? "" : ` and ${cut - 1} more of its turn`;
    parts.push(`range cut short before the current turn: it covered the newest user message "${current.id}"${more}, sent as written instead`);
  }
  if (startInCurrentTurn) parts.push(`its start id is inside the current turn, so it goes before the newest user message "${current.id}"`);
  const reason = parts.join("; ");
  host.warn(`summary "${summaryId}": ${reason}`);
  return reason;
}

// A stored summary item cut short: the same object for the same item and ids, so counts are reused.
const shortened = new WeakMap<ItemOf<"summary">, { readonly key: string; readonly item: ItemOf<"summary"> }>();

function shortenedSummary(item: ItemOf<"summary">, covered: ReadonlyArray<string>): ItemOf<"summary"> {
  const key = covered.join("\u0000");
  const known = shortened.get(item);
  if (known !== undefined && known.key === key) return known.item;
  const { fromId: _fromId, toId: _toId, ...rest } = item;
  const made = Object.freeze({ ...rest, coveredIds: [...covered], originalCount: covered.length }) as ItemOf<"summary">;
  shortened.set(item, { key, item: made });
  return made;
}

// Items are immutable, so covered items already checked against a fingerprint need not be hashed
// again on the next build: the same objects give the same hash. Bounded, oldest forgotten first.
const verified = new Map<string, ReadonlyArray<Item>>();
const MAX_VERIFIED = 64;

function matchesFingerprint(covered: ReadonlyArray<Item>, fingerprint: string): boolean {
  const known = verified.get(fingerprint);
  if (known !== undefined && known.length === covered.length && known.every((item, index) => item === covered[index])) return true;
  if (fingerprintOf(covered) !== fingerprint) return false;
  if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
  verified.set(fingerprint, covered);
  return true;
}

function preview(ids: ReadonlyArray<string>): string {
  const shown = ids.slice(0, 3).map((id) => `"${id}"`).join(", ");
  return ids.length > 3 ? `${shown} and ${ids.length - 3} more` : shown;
}
