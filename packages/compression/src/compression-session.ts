// One pass of the chain's compression state, found by a strategy (summarize) through its context.
import type { StageContext } from "@ctxpipe/core";
import type { ItemSaving, SkippedSummary, StrategyReport, SummarizerReport } from "./compression-report.js";
import type { CompressionSettings } from "./compression-settings.js";
import type { SummaryRecord } from "./summaries/summary-record.js";

/** One pass's state: the figures the strategies work from and what they did. */
export interface Session {
  readonly settings: CompressionSettings;
  readonly loopStartId: string | undefined;
  readonly budget: number | undefined;
  /** False when the build passed `compression: false`: no strategy runs. */
  readonly enabled: boolean;
  readonly fixed: number;
  usageBefore: number;
  usage: number;
  goal: number;
  saved: number;
  triggered: boolean;
  /** Whether the trigger was decided: after the strategies that run always, before the first that waits for it. */
  decided: boolean;
  readonly strategies: StrategyReport[];
  /**
   * What each strategy (and the apply step) took from each item, counted exactly: one part per
   * strategy, in chain order (a strategy's part may be the array it keeps growing from build to
   * build, so a part is read up to the length it had when added: see savingsOf).
   */
  readonly savingParts: Array<{ readonly savings: ReadonlyArray<ItemSaving>; readonly length: number }>;
  readonly applied: string[];
  readonly skipped: SkippedSummary[];
  readonly records: SummaryRecord[];
  summarizer: SummarizerReport | undefined;
}

export const sessions = new WeakMap<StageContext, Session>();

/** The session of the build a strategy runs in; strategies that make summaries report them here. */
export function sessionOf(context: StageContext): Session | undefined {
  return sessions.get(context);
}



/** The session's savings, in chain order, as one new array. */
export function savingsOf(session: Pick<Session, "savingParts">): ItemSaving[] {
  const all: ItemSaving[] = [];
  for (const { savings, length } of session.savingParts) for (let index = 0; index < length; index++) all.push(savings[index]!);
  return all;
}

/** Whether two sessions' savings are the same objects, part by part (parts are not changed below the length they were added with). */
export function sameSavings(a: Session["savingParts"], b: Session["savingParts"]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index]!.savings !== b[index]!.savings || a[index]!.length !== b[index]!.length) return false;
  return true;
}
