// Run mode: the same model failure over and over stops the run with a clear error instead of looping.
import { CtxpipeError } from "@ctxpipe/core";
import type { ModelError } from "../model/model-error.js";

export const LOOP_REPEATED_FAILURE = "LOOP_REPEATED_FAILURE";

export class RepeatedFailureError extends CtxpipeError {
  readonly fingerprint: string;
  /** Identical failures in a row, counted from the log since the model last answered. */
  readonly count: number;
  readonly lastError: ModelError;

  constructor(lastError: ModelError, count: number) {
    super(LOOP_REPEATED_FAILURE, `The model call failed ${count} times in a row with the same error (${lastError.code}: ${lastError.message}); stopping instead of trying again. Fix the cause, then continue the conversation.`, { cause: lastError });
    this.name = "RepeatedFailureError";
    this.fingerprint = lastError.fingerprint;
    this.count = count;
    this.lastError = lastError;
  }
}
