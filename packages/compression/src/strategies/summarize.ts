// Summarization: the oldest turns (with the summary already in front of them, rolled in so its facts
// survive) go to the application's summarizer; its text comes back as a summary record, which stands
// in for them from this build on. The record is in report.compression.records for the application to
// persist and pass back in later builds' `summaries`, which apply it without calling the summarizer.
// A summarizer that throws, times out or answers with empty text changes nothing: the build goes on
// without a summary (later strategies and the budget fit still apply) or, with onFailure "throw",
// fails with a SummarizerError.
//
// The summarizer is a model call, so it gets only what the build would send: each message as the
// later stages leave it (policyViewOf: a redaction plugin's rewrite applied), and nothing they leave
// out (includeInContext: false, a user's filter). Those stay in the list, uncovered, for their stage
// to drop with its own reason. Pinned turns are passed over: they stay as they are, after the summary.
import { type Item, type ItemOf, type Items, isPinned, policyViewOf, positionsOf } from "@ctxpipe/core";
import { z } from "zod";
import { sessionOf } from "../compression-session.js";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";
import { fingerprintOf } from "../summaries/fingerprint.js";
import { callSummarizer, type Summarizer, type SummarizerCall, summaryPrompt, transcriptOf } from "../summaries/summarizer.js";
import { SummarizerError } from "../summaries/summarizer-error.js";
import { summaryItemOf } from "../summaries/summary-item.js";
import type { SummaryRecord } from "../summaries/summary-record.js";

export const summarizeSettingsSchema = z.strictObject({
  type: z.literal("summarize"),
  name: z.string().min(1).default("summarize"),
  /** Default: the plugin's summarizer. */
  summarizer: z.custom<Summarizer>((value) => typeof value === "function", "a function (request) => Promise<string>").optional(),
  /** About how long a summary may be, in tokens; the summarizer is told, and ranges are picked with it in mind. Default 1,000. */
  maxSummaryTokens: z.number().int().positive().default(1000),
  /** How long the summarizer may take. Default 60,000 ms. */
  timeoutMs: z.number().int().positive().default(60_000),
  /** "skip" (default): a failed summarizer leaves the history as it was; "throw": the build fails with SummarizerError. */
  onFailure: z.enum(["skip", "throw"]).default("skip"),
  /** The clock for records' createdAt. Default Date.now. */
  now: z.custom<() => number>((value) => typeof value === "function", "a function () => epoch milliseconds").optional(),
});

export type SummarizeSettings = z.input<typeof summarizeSettingsSchema>;

// Summaries made recently, by what they cover: a build that runs its stages again (over budget) or an
// application that rebuilds before persisting gets the same record without a second call.
const MAX_REMEMBERED = 32;

export function summarize(settings: Omit<SummarizeSettings, "type"> & { summarizer: Summarizer }): CompressionStrategy;
export function summarize(settings: Omit<SummarizeSettings, "type">, fallback?: Summarizer): CompressionStrategy;
export function summarize(settings: Omit<SummarizeSettings, "type">, fallback?: Summarizer): CompressionStrategy {
  const options = summarizeSettingsSchema.parse({ ...settings, type: "summarize" });
  const summarizer = options.summarizer ?? fallback;
  if (summarizer === undefined) throw new TypeError('the "summarize" strategy needs a summarizer: pass one in its settings or in CompressionPlugin\'s options');
  const now = options.now ?? Date.now;
  const remembered = new Map<string, SummaryRecord>();
  const failures = new WeakMap<object, Map<string, SummarizerCall>>();

  return {
    name: options.name,
    async compress(items: Items, context: CompressionContext): Promise<Items | undefined> {
      const build = context.build;
      const session = sessionOf(build);
      const inputPositions = positionsOf(build.inputItems);
      const inLog = (item: Item) => build.inputItems[inputPositions.get(item.id) ?? -1] !== undefined;
      const view = await policyViewOf(build);
      // A message of the log the later stages leave out; a summary this chain applied is its own.
      const leftOut = (item: Item) => inLog(item) && view.sentFormOf(item.id) === undefined;

      // The oldest unprotected turns, enough to save what is asked once the summary itself is paid for.
      // A pinned turn is passed over; the first protected turn of any other kind ends the range.
      const chosen: Item[] = [];
      const previous: ItemOf<"summary">[] = [];
      // What the range holds that the summary does not cover: pinned turns, messages left out.
      const passedOver: Item[] = [];
      let cost = 0;
      const summaryCost = options.maxSummaryTokens + 16;
      for (const group of context.turns.groups) {
        if (chosen.length > 0 && cost - summaryCost >= context.remaining) break;
        const members = group.itemIds.map((id) => context.itemById(id)!);
        if (context.isProtectedGroup(group.index)) {
          if (!members.every((item) => isPinned(item) || !context.isProtected(item))) break;
          passedOver.push(...members.filter((item) => item.type !== "system"));
          continue;
        }
        for (const item of members) {
          if (item.type === "system") continue;
          if (leftOut(item)) passedOver.push(item);
          else if (item.type === "summary") previous.push(item);
          else chosen.push(item);
          if (!leftOut(item)) cost += context.estimate(item);
        }
      }
      if (chosen.length === 0) return undefined;

      // What the new summary covers, in the stored log's terms: an earlier summary's messages (and the
      // summary itself when it is a stored message), then the chosen messages as they were stored.
      const covered = new Set<string>();
      for (const summary of previous) {
        if (inLog(summary)) covered.add(summary.id);
        for (const id of summary.coveredIds) if (inputPositions.has(id)) covered.add(id);
      }
      for (const item of chosen) if (inputPositions.has(item.id)) covered.add(item.id);
      const coveredIds = [...covered].sort((left, right) => inputPositions.get(left)! - inputPositions.get(right)!);
      if (coveredIds.length === 0) return undefined;
      // The summary goes where the range starts: before a pinned turn or a left-out message that comes
      // first, which a record starting later would otherwise take as covered (all before a start is).
      const firstCovered = inputPositions.get(coveredIds[0]!)!;
      const before = passedOver.filter((item) => inLog(item) && inputPositions.get(item.id)! < firstCovered);
      const startId = before.length === 0 ? coveredIds[0]! : before.reduce((first, item) => (inputPositions.get(item.id)! < inputPositions.get(first.id)! ? item : first)).id;
      const originals = coveredIds.map((id) => build.inputItems[inputPositions.get(id)!]!);
      const fingerprint = fingerprintOf(originals);
      // A stored summary message is read as the build would send it, too.
      const previousSummary = previous.length === 0 ? undefined : previous.map((summary) => sentText(inLog(summary) ? view.sentFormOf(summary.id) : summary)).join("\n\n");
      const key = `${fingerprint}|${previousSummary ?? ""}`;

      let record = remembered.get(key);
      if (record === undefined) {
        const earlier = failures.get(build.inputItems)?.get(key);
        // As the build would send them: whole (not an earlier strategy's placeholder), with what a
        // redaction plugin rewrote rewritten.
        const fresh = chosen.filter((item) => inLog(item)).map((item) => view.sentFormOf(item.id)!);
        const transcript = transcriptOf(fresh);
        const call =
          earlier ??
          (await callSummarizer(
            summarizer,
            { items: fresh, transcript, previousSummary, maxTokens: options.maxSummaryTokens, prompt: summaryPrompt(transcript, previousSummary, options.maxSummaryTokens) },
            options.timeoutMs,
          ));
        if (!call.ok) {
          const perBuild = failures.get(build.inputItems) ?? new Map<string, SummarizerCall>();
          failures.set(build.inputItems, perBuild);
          perBuild.set(key, call);
          if (session !== undefined) session.summarizer = { outcome: call.outcome, error: call.error, coveredCount: coveredIds.length };
          if (options.onFailure === "throw") throw new SummarizerError(call.outcome, call.error, coveredIds, call.cause);
          build.warn(`the summarizer failed (${call.outcome}: ${call.error}); ${coveredIds.length} messages were left as they are`);
          return undefined;
        }
        let sourceTokenCount = 0;
        for (const item of originals) sourceTokenCount += build.countTokens(item);
        record = {
          id: `summary_${fingerprint.slice(fingerprint.indexOf(":") + 1)}`,
          summary: call.text,
          coveredIds,
          startId,
          sourceTokenCount,
          createdAt: new Date(now()).toISOString(),
          fingerprint,
        };
        if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
        remembered.set(key, record);
      }
      if (session !== undefined) {
        session.records.push(record);
        // New to the caller either way (a passed-back record would have been applied before the chain
        // ran): "reused" is for a build that applied one instead of making one.
        session.summarizer = { outcome: "made", coveredCount: coveredIds.length };
      }

      const summaryItem = summaryItemOf(record);
      const replaced = new Set<Item>([...chosen, ...previous]);
      const result: Item[] = [];
      let placed = false;
      for (const item of items) {
        if (!replaced.has(item)) {
          result.push(item);
          continue;
        }
        if (!placed) result.push(summaryItem);
        placed = true;
        const reason = item.type === "summary" ? `rolled into the new summary "${record.id}"` : `summarized into "${record.id}" to save tokens`;
        build.report.summarize(item, record.id, reason);
      }
      build.report.synthesize(summaryItem, `summary of ${coveredIds.length} messages by the summarizer; persist it from report.compression.records`);
      return result;
    },
  };
}

function sentText(item: Item | undefined): string {
  return item !== undefined && "text" in item ? item.text : "";
}
