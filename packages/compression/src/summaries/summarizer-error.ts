// Raised when the summarizer fails and the summarize strategy was told to fail the build
// (onFailure: "throw"). By default it does not: the build goes on without a summary.
import { CtxpipeError } from "@ctxpipe/core";

export const SUMMARIZER_FAILED = "SUMMARIZER_FAILED";

export class SummarizerError extends CtxpipeError {
  /** How it failed: it threw, it ran out of time, or it answered with empty text. */
  readonly outcome: "threw" | "timed-out" | "empty";
  /** Ids of the messages it was asked to summarize; none of them was changed. */
  readonly coveredIds: ReadonlyArray<string>;

  constructor(outcome: SummarizerError["outcome"], detail: string, coveredIds: ReadonlyArray<string>, cause?: unknown) {
    super(SUMMARIZER_FAILED, `The summarizer failed (${outcome}: ${detail}) while summarizing ${coveredIds.length} messages from "${coveredIds[0]}"; the history is unchanged.`, cause === undefined ? undefined : { cause });
    this.name = "SummarizerError";
    this.outcome = outcome;
    this.coveredIds = coveredIds;
  }
}
