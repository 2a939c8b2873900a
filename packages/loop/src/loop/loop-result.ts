// How a loop call ended.
import type { BuildResult } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import type { ModelError } from "../model/model-error.js";
import type { ModelUsage } from "../model/model-adapter.js";
import type { LoopTokenizerInfo } from "./counting-pipeline.js";
import type { RepeatedFailureError } from "./repeated-failure-error.js";
import type { TokenEstimate } from "./token-estimate.js";

/**
 * - completed: the model answered without calling tools.
 * - max-turns: it was still calling tools after maxTurns model calls.
 * - failed: a model call failed after its retries (its final failure persisted as one error message, so
 *   "continue" works; the retries are not persisted) or failed the same way too often, counted over calls
 *   from the log (RepeatedFailureError).
 * - aborted: the signal fired; what was persisted before stays.
 */
export type LoopStatus = "completed" | "max-turns" | "failed" | "aborted";

export interface LoopResult {
  readonly status: LoopStatus;
  /** The last answer's text ("" when there was none). */
  readonly text: string;
  /** Model calls that returned an answer. */
  readonly turns: number;
  /** Every message this call appended, in order. */
  readonly persisted: ReadonlyArray<StoredMessage>;
  readonly error?: ModelError | RepeatedFailureError;
  /** Summed over the calls whose adapter reported usage. */
  readonly usage: ModelUsage;
  /** The last request built, with its report. */
  readonly lastBuild?: BuildResult<unknown>;
  /**
   * How far the count of the last request whose call reported usage was from the provider's input
   * tokens: `offBy` is reported − counted. Absent when no call of this loop call reported any.
   */
  readonly tokenEstimate?: TokenEstimate;
  /**
   * The tokenizer the loop counts this conversation with, after what this call's usage taught it:
   * the next build counts with it. Absent with a pipeline of your own, or a model without a name
   * (core's estimate); `lastBuild.report.tokenizer` names what counted the last build in every case.
   */
  readonly tokenizer?: LoopTokenizerInfo;
}
