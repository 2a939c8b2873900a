// Computes what the inspector shows from a CLI build: the budget split by kind, one timeline row per
// item with its decision and who made it, the summaries and what they cover, and the cache break point.
import type { ItemSaving, SummaryRecord } from "@ctxpipe/compression";
import { type Decision, type Item, type ReportEntry, SYSTEM_PROMPT_ID } from "@ctxpipe/core";
import { createTokenizer } from "@ctxpipe/tokenizers";
import type { CliBuild } from "../build/build-conversation.js";
import { describeBudget } from "../build/cli-budget-of.js";
import { itemPreview } from "./item-preview.js";
import {
  type BudgetSegment,
  type BudgetSegmentKind,
  type Inspection,
  type InspectionCache,
  type InspectionSavings,
  PREVIEW_LENGTH,
  type SavedBy,
  type SummaryView,
  type TimelineRow,
} from "./inspection.js";

// Every decision, in the order the inspector lists them: a Record, so a decision core adds and this
// list forgets fails to compile.
const DECISION_ORDER: Readonly<Record<Decision, true>> = {
  kept: true,
  merged: true,
  repaired: true,
  synthesized: true,
  cleared: true,
  truncated: true,
  summarized: true,
  dropped: true,
};
export const DECISIONS: ReadonlyArray<Decision> = Object.keys(DECISION_ORDER) as Decision[];

const SEGMENT_LABELS: Readonly<Record<BudgetSegmentKind, string>> = {
  system: "System prompt",
  user: "User messages",
  assistant: "Assistant messages and tool calls",
  "tool-results": "Tool results",
  summaries: "Summaries",
  other: "Other items",
  overhead: "Message formatting and tool definitions",
  "reserved-output": "Reserved for the answer",
  free: "Free",
};

function segmentOf(type: string): BudgetSegmentKind {
  switch (type) {
    case "system":
      return "system";
    case "user":
    case "user-intervention":
      return "user";
    case "assistant":
    case "thinking":
    case "error":
      return "assistant";
    case "tool-result":
    case "subagent-result":
      return "tool-results";
    case "summary":
      return "summaries";
    default:
      return "other";
  }
}

const isSent = (decision: Decision) => decision !== "dropped" && decision !== "summarized";

function preview(text: string): string {
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

export function inspectionOf(build: CliBuild, title: string): Inspection {
  const { result, input } = build;
  const report = result.report;
  const itemsById = new Map<string, Item>(input.items.map((item) => [item.id, item]));
  const compression = report.compression;
  const newRecords = new Map<string, SummaryRecord>((compression?.records ?? []).map((record) => [record.id, record]));
  const givenRecords = new Map<string, SummaryRecord>(input.summaries.map((record) => [record.id, record]));
  const systemPrompt = report.systemParts.map((part) => part.text).join("\n\n");

  const textOf = (entry: ReportEntry): string => {
    const item = itemsById.get(entry.id);
    if (item !== undefined && entry.inputIndex !== undefined) return itemPreview(item);
    if (entry.id === SYSTEM_PROMPT_ID) return systemPrompt;
    return newRecords.get(entry.id)?.summary ?? givenRecords.get(entry.id)?.summary ?? "";
  };
  const savingsById = new Map<string, ItemSaving[]>();
  for (const saving of compression?.savings ?? []) savingsById.set(saving.id, [...(savingsById.get(saving.id) ?? []), saving]);
  const rowOf = (entry: ReportEntry): TimelineRow => ({
    id: entry.id,
    inputIndex: entry.inputIndex,
    location: entry.inputIndex === undefined ? undefined : input.locations[entry.inputIndex],
    type: entry.type,
    role: entry.role,
    decision: entry.decision,
    stage: entry.stage,
    plugin: entry.plugin,
    // A cut item's handle is how the whole text is read back (retrieve_context, --offload-dir).
    reason: entry.cut === undefined || entry.reason.includes(entry.cut.handle) ? entry.reason : `${entry.reason}; the whole text is kept as ${entry.cut.handle}`,
    relatedId: entry.relatedId,
    tokens: entry.tokens,
    tokensSaved: entry.tokensSaved,
    savedBy: savedByOf(entry, savingsById.get(entry.id) ?? []),
    messageIndex: entry.messageIndex,
    preview: preview(textOf(entry)),
    history: entry.history,
  });

  const timeline = timelineOf(report.entries.map(rowOf), report.synthesized.map(rowOf));
  const decisions = Object.fromEntries(DECISIONS.map((decision) => [decision, 0])) as Record<Decision, number>;
  for (const entry of report.entries) decisions[entry.decision]++;

  return {
    title,
    provider: build.options.provider,
    model: build.options.model,
    tokenizer: report.tokenizer,
    tokenCount: result.tokenCount,
    tokenCountExact: result.tokenCountExact,
    budget: budgetOf(build),
    decisions,
    inputCount: result.metadata.inputCount,
    outputCount: result.metadata.outputCount,
    timeline,
    summaries: summariesOf(build, newRecords, givenRecords, textOf),
    systemParts: report.systemParts.map((part) => ({ id: part.id, addedBy: part.addedBy, tokens: part.tokens })),
    request: build.request,
    cache: cacheOf(build),
    compression:
      compression === undefined
        ? undefined
        : {
            triggered: compression.triggered,
            usageBefore: compression.usageBefore,
            usageAfter: compression.usageAfter,
            strategies: compression.strategies.map(({ name, ran, itemsAffected, tokensSaved }) => ({ name, ran, itemsAffected, tokensSaved })),
          },
    savings: savingsOf(timeline, compression?.strategies.map((strategy) => strategy.name) ?? []),
    warnings: [...input.warnings, ...report.warnings],
    violations: report.violations.map((violation) => violation.message),
  };
}

/**
 * Splits an entry's tokensSaved between the compression steps that took part (report.compression's
 * savings) and, for the rest, the plugin of its final decision (FitBudget after the chain, the filter).
 */
function savedByOf(entry: ReportEntry, savings: ReadonlyArray<ItemSaving>): SavedBy[] {
  const saved = entry.tokensSaved ?? 0;
  if (saved <= 0 || entry.inputIndex === undefined) return [];
  const credits = new Map<string, number>();
  let credited = 0;
  for (const saving of savings) {
    credits.set(saving.strategy, (credits.get(saving.strategy) ?? 0) + saving.tokensSaved);
    credited += saving.tokensSaved;
  }
  // Savings that do not fit the entry's figure describe some other state of the item: do not split.
  if (credited > saved) return [{ plugin: entry.plugin, tokens: saved }];
  if (saved > credited) credits.set(entry.plugin, (credits.get(entry.plugin) ?? 0) + saved - credited);
  return [...credits].filter(([, tokens]) => tokens > 0).map(([plugin, tokens]) => ({ plugin, tokens }));
}

/** Per plugin, the rows' credits, less what the summaries a plugin added cost (as the compression report counts them). */
function savingsOf(timeline: ReadonlyArray<TimelineRow>, strategies: ReadonlyArray<string>): InspectionSavings {
  // The chain's strategies first, in chain order (the order they act in), then the others as they come.
  const byPlugin = new Map<string, { items: number; tokens: number }>();
  for (const row of timeline) for (const credit of row.savedBy) if (strategies.includes(credit.plugin)) byPlugin.set(credit.plugin, { items: 0, tokens: 0 });
  for (const name of strategies) {
    const sum = byPlugin.get(name);
    if (sum === undefined) continue;
    byPlugin.delete(name);
    byPlugin.set(name, sum);
  }
  const add = (plugin: string, items: number, tokens: number) => {
    const sum = byPlugin.get(plugin) ?? { items: 0, tokens: 0 };
    byPlugin.set(plugin, { items: sum.items + items, tokens: sum.tokens + tokens });
  };
  for (const row of timeline) for (const credit of row.savedBy) add(credit.plugin, 1, credit.tokens);
  for (const row of timeline) if (row.inputIndex === undefined && row.type === "summary" && byPlugin.has(row.plugin)) add(row.plugin, 0, -row.tokens);
  const list = [...byPlugin].map(([plugin, sum]) => ({ plugin, ...sum }));
  return { total: list.reduce((sum, entry) => sum + entry.tokens, 0), byPlugin: list };
}

/**
 * Input rows in file order (the timeline's lines; `report.allEntries` follows the request's order instead,
 * which dated messages can change); a synthesized row goes just before the first input row sent after it.
 */
function timelineOf(inputRows: ReadonlyArray<TimelineRow>, synthesized: ReadonlyArray<TimelineRow>): TimelineRow[] {
  const rows = [...inputRows];
  for (const row of synthesized) {
    const at = row.messageIndex === undefined ? -1 : rows.findIndex((other) => other.inputIndex !== undefined && other.messageIndex !== undefined && other.messageIndex >= row.messageIndex!);
    if (at === -1) rows.push(row);
    else rows.splice(at, 0, row);
  }
  return rows;
}

function budgetOf(build: CliBuild): Inspection["budget"] {
  const { result } = build;
  const budget = result.report.budget;
  const maxTokens = budget?.maxTokens ?? result.tokenCount;
  const reserve = budget?.reserveOutputTokens ?? 0;
  const used = result.tokenCount;
  const sums = new Map<BudgetSegmentKind, { tokens: number; items: number }>();
  const add = (kind: BudgetSegmentKind, tokens: number, items: number) => {
    const sum = sums.get(kind) ?? { tokens: 0, items: 0 };
    sums.set(kind, { tokens: sum.tokens + tokens, items: sum.items + items });
  };
  for (const entry of result.report.allEntries) {
    if (!isSent(entry.decision) || entry.decision === "merged") continue;
    add(segmentOf(entry.type), entry.tokens, 1);
  }
  let content = 0;
  for (const sum of sums.values()) content += sum.tokens;
  const order: BudgetSegmentKind[] = ["system", "user", "assistant", "tool-results", "summaries", "other"];
  const segments: BudgetSegment[] = order.filter((kind) => sums.has(kind)).map((kind) => ({ kind, label: SEGMENT_LABELS[kind], ...sums.get(kind)! }));
  segments.push({ kind: "overhead", label: SEGMENT_LABELS.overhead, tokens: Math.max(0, used - content), items: 0 });
  if (reserve > 0) segments.push({ kind: "reserved-output", label: SEGMENT_LABELS["reserved-output"], tokens: reserve, items: 0 });
  segments.push({ kind: "free", label: SEGMENT_LABELS.free, tokens: Math.max(0, maxTokens - reserve - used), items: 0 });
  return { maxTokens, reserveOutputTokens: reserve, available: budget?.available ?? maxTokens - reserve, origin: describeBudget(build.budget, build.options), used, segments };
}

function summariesOf(build: CliBuild, newRecords: ReadonlyMap<string, SummaryRecord>, givenRecords: ReadonlyMap<string, SummaryRecord>, textOf: (entry: ReportEntry) => string): SummaryView[] {
  const report = build.result.report;
  const entries = report.allEntries;
  const tokensById = new Map(entries.map((entry) => [entry.id, entry]));
  const views: SummaryView[] = [];
  for (const entry of entries) {
    if (entry.type !== "summary") continue;
    const covered = report.entries.filter((other) => other.relatedId === entry.id && other.decision === "summarized");
    const record = newRecords.get(entry.id) ?? givenRecords.get(entry.id);
    const coveredIds = covered.length > 0 ? covered.map((other) => other.id) : [...(record?.coveredIds ?? [])];
    views.push({
      id: entry.id,
      source: entry.inputIndex !== undefined ? "input" : newRecords.has(entry.id) ? "new" : "record",
      text: textOf(entry),
      tokens: entry.tokens,
      sent: isSent(entry.decision),
      coveredIds,
      coveredTokens: coveredIds.reduce((sum, id) => sum + (tokensById.get(id)?.tokens ?? 0), 0),
      note: undefined,
    });
  }
  // Persisted records that are not in the request: rolled into a summary made in this build, or skipped.
  const compression = report.compression;
  const tokenizer = createTokenizer(build.options.model, build.options.fallbackEncoding === undefined ? {} : { fallback: build.options.fallbackEncoding });
  for (const record of givenRecords.values()) {
    if (views.some((view) => view.id === record.id)) continue;
    const skipped = compression?.skippedSummaries.find((entry) => entry.id === record.id);
    const rolledInto = [...newRecords.values()].find((made) => record.coveredIds.every((id) => made.coveredIds.includes(id)));
    const note =
      skipped !== undefined
        ? `not applied: ${skipped.reason}`
        : rolledInto !== undefined
          ? `applied, then rolled into ${rolledInto.id}, the summary made in this build`
          : compression?.appliedSummaries.includes(record.id) === true
            ? "applied, then dropped to fit the budget"
            : "not applied";
    views.push({
      id: record.id,
      source: "record",
      text: record.summary,
      tokens: tokenizer.count(record.summary),
      sent: false,
      coveredIds: record.coveredIds,
      coveredTokens: record.coveredIds.reduce((sum, id) => sum + (tokensById.get(id)?.tokens ?? 0), 0),
      note,
    });
  }
  return views;
}

function cacheOf(build: CliBuild): InspectionCache {
  const cache = build.result.report.cache;
  if (build.previous === undefined) return { ...cache, note: "not compared: the build was run on its own" };
  return { ...cache, note: build.previous.note };
}
