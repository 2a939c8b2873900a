// What report.compression says about one build: whether compression triggered and ran, the figures
// it worked from, what each strategy saved, and the summaries applied, skipped and made.
import type { SummaryRecord } from "./summaries/summary-record.js";

export interface StrategyReport {
  readonly name: string;
  /** Whether the strategy was called: the chain stops calling strategies once the goal is met. */
  readonly ran: boolean;
  /** Items it dropped, cleared or summarized. */
  readonly itemsAffected: number;
  /**
   * Tokens of content the request lost through it, counted as report.entries' tokens are (message
   * formatting aside), less what a summary it made costs. Only its own work: a result one strategy
   * cleared and a later one dropped credits the first with what the placeholder took out and the
   * second with the placeholder. The `savings` of each item add up to the entry's tokensSaved.
   */
  readonly tokensSaved: number;
}

/** What one strategy (or the apply step, "apply-summaries") took out of one item. */
export interface ItemSaving {
  readonly id: string;
  /** The strategy's name, or "apply-summaries" for a persisted summary applied. */
  readonly strategy: string;
  /** All of the item as it then stood, for one dropped or summarized; the difference, for one cleared. */
  readonly tokensSaved: number;
}

/**
 * - "made": this build made a record, which is in `records` for the caller to persist (the summarizer
 *   answered, or this pipeline had made the same summary before and was not called twice);
 * - "reused": nothing new was made: a record passed back in `summaries` was applied instead;
 * - "threw", "timed-out", "empty": the summarizer failed, and nothing was made.
 */
export type SummarizerOutcome = "made" | "reused" | "threw" | "timed-out" | "empty";

export interface SummarizerReport {
  readonly outcome: SummarizerOutcome;
  /** The error or problem, for an outcome other than made/reused. */
  readonly error?: string;
  /** Messages the summary was asked to cover; for "reused", the messages the applied records cover. */
  readonly coveredCount: number;
}

export interface SkippedSummary {
  readonly id: string;
  readonly reason: string;
}

export interface CompressionReport {
  /** Tokens the request may use; undefined when the build had no budget, so no strategy could run. */
  readonly budget: number | undefined;
  /** Estimated tokens of the request before the strategies ran (persisted summaries applied). */
  readonly usageBefore: number;
  /** Estimated tokens after them. */
  readonly usageAfter: number;
  readonly triggerAt: number | undefined;
  readonly targetAt: number | undefined;
  /** Whether usageBefore was over the trigger point. */
  readonly triggered: boolean;
  /**
   * Tokens the chain set out to save: whole steps of (trigger − target) × budget, counted from the
   * trigger point, so the cut only moves once the history has grown by a step (the prompt cache
   * keeps its prefix in between).
   */
  readonly goal: number;
  /** Whether any strategy changed anything. */
  readonly ran: boolean;
  readonly strategies: ReadonlyArray<StrategyReport>;
  /**
   * Per item the chain took content from, in the order it happened: an item cleared and then dropped
   * has two. Core's FitBudgetPlugin, after the chain, is not in it: the rest of an entry's
   * tokensSaved is its final decision's.
   */
  readonly savings: ReadonlyArray<ItemSaving>;
  /** Persisted summaries (records and summary items) applied in this build. */
  readonly appliedSummaries: ReadonlyArray<string>;
  /** Records not applied, and why: a missing start id, messages changed or gone, an overlap. */
  readonly skippedSummaries: ReadonlyArray<SkippedSummary>;
  /** Records made in this build: persist them and pass them back in later builds' `summaries`. */
  readonly records: ReadonlyArray<SummaryRecord>;
  /** What the summarizer did, when it was asked or a passed-back record of its was applied. */
  readonly summarizer: SummarizerReport | undefined;
}
