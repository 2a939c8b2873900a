// What a loop reports while it runs, for progress displays and logs.
import type { SummaryRecord } from "@ctxpipe/compression";
import type { BuildResult } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import type { ModelError } from "../model/model-error.js";
import type { ModelReply, ModelToolCall } from "../model/model-adapter.js";

export type LoopEvent =
  /** A message was durably appended to the log. */
  | { readonly type: "persisted"; readonly message: StoredMessage }
  /** The request for a model call was built; `result.report` explains every item. */
  | { readonly type: "built"; readonly turn: number; readonly result: BuildResult<unknown> }
  /** Compression made summary records; they are persisted before the model is called. */
  | { readonly type: "summarized"; readonly records: ReadonlyArray<SummaryRecord> }
  | { readonly type: "replied"; readonly turn: number; readonly reply: ModelReply }
  /**
   * A model call attempt failed. With willRetry, the loop waits delayMs and sends the same request again;
   * nothing is persisted. Without, this is the call's final failure, persisted as one error message.
   * `repeated` counts identical failures in a row in the log, this one included once persisted.
   */
  | {
      readonly type: "model-failed";
      readonly turn: number;
      /** 1 for the first attempt of this model call. */
      readonly attempt: number;
      readonly error: ModelError;
      readonly repeated: number;
      readonly willRetry: boolean;
      readonly delayMs?: number;
    }
  | { readonly type: "tool-ran"; readonly call: ModelToolCall; readonly content: string; readonly isError: boolean; readonly durationMs: number };

export type LoopEventListener = (event: LoopEvent) => void;
