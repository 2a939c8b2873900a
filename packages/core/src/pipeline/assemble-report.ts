// Turns the events recorded during a build into the report: one entry per input item with its final
// decision, plus entries for items plugins synthesized, plus both in one list in request order.
import type { Item } from "../model/item.js";
import type { SetAsideRecord } from "../model/parse-items.js";
import type { BuildContextInternals } from "./build-context.js";
import type { OffloadedText, ReportEntry, ReportEvent } from "./build-report.js";
import type { StageLabel } from "./stage.js";

const REMOVING: ReadonlySet<string> = new Set(["dropped", "summarized"]);
// Decisions about an item still sent with less content under the same id.
const SHORTENING: ReadonlySet<string> = new Set(["cleared", "truncated"]);

export interface AssembledReport {
  readonly entries: ReportEntry[];
  readonly synthesized: ReportEntry[];
  /** Both lists in one, in request order (see BuildReport.allEntries); computed when called. */
  allEntries(): ReportEntry[];
  readonly includedIds: string[];
  readonly excludedIds: string[];
}

export interface AssembleInput {
  /** Input items, each id once, at the position of the first record with their id. */
  readonly inputItems: ReadonlyArray<Item>;
  /** The same items in conversation order, as the first stage received them. */
  readonly orderedItems: ReadonlyArray<Item>;
  /** Each input item's index in what build() was given; undefined when that is its position. */
  readonly inputIndexes: ReadonlyArray<number> | undefined;
  /** Copies and earlier versions of records, left out before the first stage. */
  readonly setAside: ReadonlyArray<SetAsideRecord>;
  /** What the render stage received. */
  readonly finalItems: ReadonlyArray<Item>;
  readonly internals: BuildContextInternals;
  readonly renderPlugin: string;
  readonly messageIndexById: ReadonlyMap<string, number> | undefined;
  countTokens(item: Item): number;
}

function entryFor(
  item: Item,
  inputIndex: number | undefined,
  decision: ReportEvent,
  history: ReadonlyArray<ReportEvent>,
  tokens: number,
  messageIndex: number | undefined,
  tokensSaved?: number,
): ReportEntry {
  return {
    id: item.id,
    inputIndex,
    type: item.type,
    role: item.role,
    decision: decision.decision,
    stage: decision.stage,
    plugin: decision.plugin,
    reason: decision.reason,
    ...(decision.relatedId === undefined ? {} : { relatedId: decision.relatedId }),
    ...(decision.cut === undefined ? {} : { cut: decision.cut }),
    tokens,
    ...(tokensSaved === undefined ? {} : { tokensSaved }),
    ...(messageIndex === undefined ? {} : { messageIndex }),
    history,
  };
}

export function assembleReport(input: AssembleInput): AssembledReport {
  const { internals, messageIndexById } = input;
  const finalById = new Map<string, Item>();
  for (const item of input.finalItems) finalById.set(item.id, item);
  const events = internals.log.byId();
  const lastEvent = (id: string) => events.get(id)?.at(-1);

  // An item reaches the model if it is in the final list and was not dropped there (a renderer may
  // leave an item out), or if it was merged into an item that reaches the model.
  const sent = (id: string, depth = 0): boolean => {
    const last = lastEvent(id);
    if (last?.decision === "merged" && last.relatedId !== undefined && depth < 16) return sent(last.relatedId, depth + 1);
    return finalById.has(id) && (last === undefined || !REMOVING.has(last.decision));
  };

  const renderStage: StageLabel = "render";
  const keptEvent = (id: string): ReportEvent => {
    const messageIndex = messageIndexById?.get(id);
    const reason = messageIndex === undefined ? "sent to the model" : `sent in message ${messageIndex}`;
    return { decision: "kept", stage: renderStage, plugin: input.renderPlugin, reason };
  };

  const entries: ReportEntry[] = [];
  const inputIds = new Set<string>();
  const excludedIds: string[] = [];
  const mergedInto = new Map<string, string[]>();
  input.inputItems.forEach((original, position) => {
    const inputIndex = input.inputIndexes === undefined ? position : input.inputIndexes[position]!;
    inputIds.add(original.id);
    const history = events.get(original.id) ?? [];
    const last = history.at(-1);
    let decision: ReportEvent;
    if (sent(original.id)) {
      if (last?.decision === "merged") {
        decision = last;
        if (!finalById.has(original.id)) mergedInto.set(last.relatedId!, [...(mergedInto.get(last.relatedId!) ?? []), original.id]);
      } else if (last?.decision === "repaired" || (last !== undefined && SHORTENING.has(last.decision))) {
        decision = last;
      } else if (last?.decision === "synthesized") {
        // A plugin removed the item and later put back an object of its own under the same id.
        decision = { ...last, decision: "repaired", reason: `replaced: ${last.reason}` };
      } else {
        decision = keptEvent(original.id);
      }
    } else {
      excludedIds.push(original.id);
      decision = history.findLast((event) => REMOVING.has(event.decision) || event.decision === "merged") ?? {
        decision: "dropped",
        stage: renderStage,
        plugin: input.renderPlugin,
        reason: "not in the rendered request",
      };
    }
    const final = finalById.get(original.id);
    const tokens = input.countTokens(final ?? original);
    let tokensSaved: number | undefined;
    if (REMOVING.has(decision.decision)) tokensSaved = tokens;
    else if (final !== undefined && final !== original && history.some((event) => SHORTENING.has(event.decision))) {
      tokensSaved = Math.max(0, input.countTokens(original) - tokens);
    }
    const messageIndex = messageIndexById?.get(original.id) ?? (last?.relatedId === undefined ? undefined : messageIndexById?.get(last.relatedId));
    entries.push(entryFor(original, inputIndex, decision, history, tokens, messageIndex, tokensSaved));
  });

  // Entries of records set aside, by the id of the record kept in their place.
  const setAsideEntries = new Set<ReportEntry>();
  const earlierById = new Map<string, ReportEntry[]>();
  const copiesById = new Map<string, ReportEntry[]>();
  if (input.setAside.length > 0) {
    for (const record of input.setAside) {
      const event: ReportEvent = { decision: "dropped", stage: "repair-orphans", plugin: "ctxpipe", reason: setAsideReason(record) };
      const entry = entryFor(record.item, record.index, event, [event], input.countTokens(record.item), undefined);
      entries.push(entry);
      setAsideEntries.add(entry);
      const byId = record.kind === "copy" ? copiesById : earlierById;
      byId.set(record.item.id, [...(byId.get(record.item.id) ?? []), entry]);
    }
    entries.sort((left, right) => left.inputIndex! - right.inputIndex!);
  }

  const synthesized: ReportEntry[] = [];
  const includedIds: string[] = [];
  for (const item of input.finalItems) {
    if (!sent(item.id)) continue;
    if (inputIds.has(item.id)) {
      includedIds.push(item.id, ...(mergedInto.get(item.id) ?? []));
      continue;
    }
    // Input items merged into an added item (stored system messages into the system prompt) are sent with it.
    includedIds.push(...(mergedInto.get(item.id) ?? []));
    const history = events.get(item.id) ?? [];
    const decision = history.findLast((event) => event.decision === "synthesized") ?? {
      decision: "synthesized" as const,
      stage: renderStage,
      plugin: "unknown",
      reason: "added without a recorded reason",
    };
    synthesized.push(entryFor(item, undefined, decision, history, input.countTokens(item), messageIndexById?.get(item.id)));
  }

  // Only a caller who reads report.allEntries pays for it.
  const allEntries = (): ReportEntry[] => {
    const entryById = new Map<string, ReportEntry>();
    for (const entry of entries) if (!setAsideEntries.has(entry)) entryById.set(entry.id, entry);
    // The same walk as above: synthesized entries were made in this order.
    const inRequest: ReportEntry[] = [];
    let added = 0;
    for (const item of input.finalItems) {
      if (sent(item.id)) inRequest.push(inputIds.has(item.id) ? entryById.get(item.id)! : synthesized[added++]!);
    }
    // Input entries in conversation order: a record's earlier versions right before it, its copies right after.
    const conversation: ReportEntry[] = [];
    for (const item of input.orderedItems) conversation.push(...(earlierById.get(item.id) ?? []), entryById.get(item.id)!, ...(copiesById.get(item.id) ?? []));
    return withInputPositions(inRequest, conversation);
  };
  return { entries, synthesized, allEntries, includedIds, excludedIds };
}

/**
 * Each offloaded text once, by the input position of its item (the last, for an id given twice); texts
 * of added items after, in the order kept. The from-scratch order, which the pipeline works out from
 * last build's (OffloadedReportMemo) and tests hold it to.
 */
export function inInputOrder(offloaded: ReadonlyMap<string, OffloadedText>, inputItems: ReadonlyArray<Item>): OffloadedText[] {
  if (offloaded.size === 0) return [];
  const texts = [...offloaded.values()];
  const wanted = new Set(texts.map((text) => text.itemId));
  const position = new Map<string, number>();
  for (let index = 0; index < inputItems.length; index++) {
    const id = inputItems[index]!.id;
    if (wanted.has(id)) position.set(id, index);
  }
  // Sort is stable: texts of one item keep the order they were recorded in.
  return texts.sort((left, right) => (position.get(left.itemId) ?? inputItems.length) - (position.get(right.itemId) ?? inputItems.length));
}

/** Why a record was left out before the first stage: it repeats, or was replaced by, the record kept. */
function setAsideReason(record: SetAsideRecord): string {
  if (record.kind === "copy") return `an exact copy of input item ${record.keptIndex} (same id and content), stored twice`;
  return `an earlier version of this message (same id ${JSON.stringify(record.item.id)}); the edit at input index ${record.keptIndex} takes its place`;
}

/**
 * The entries of the request, in request order, with every input entry that is not in it (dropped,
 * summarized, merged into another item, an exact copy, an earlier version) put back at its place in
 * the conversation: just before the next input entry, in `conversation` order, that is in the
 * request; after the last one, at the end.
 */
function withInputPositions(inRequest: ReadonlyArray<ReportEntry>, conversation: ReadonlyArray<ReportEntry>): ReportEntry[] {
  const placed = new Set(inRequest);
  const leftOutBefore = new Map<ReportEntry, ReportEntry[]>();
  let leftOut: ReportEntry[] = [];
  for (const entry of conversation) {
    if (!placed.has(entry)) leftOut.push(entry);
    else if (leftOut.length > 0) {
      leftOutBefore.set(entry, leftOut);
      leftOut = [];
    }
  }
  const all: ReportEntry[] = [];
  for (const entry of inRequest) {
    const before = leftOutBefore.get(entry);
    if (before !== undefined) all.push(...before);
    all.push(entry);
  }
  all.push(...leftOut);
  return all;
}
