// What a loop reports while it runs, for progress displays, logs and UIs. Every event of one loop call
// carries a sequence number (1, 2, 3… in emission order; the run-mode design's `streamSequence`), text
// deltas included, so a UI that lost its connection resumes after the last number it saw.
import type { SummaryRecord } from "@ctxpipe/compression";
import type { BuildResult } from "@ctxpipe/core";
import type { OffloadedInfo, StoredMessage } from "@ctxpipe/store";
import type { ModelError } from "../model/model-error.js";
import type { ModelReply, ModelToolCall } from "../model/model-adapter.js";

/** A loop event before it is numbered: what the loop emits. */
export type LoopEventBody =
  /** A piece of the answer's text as the model streams it (what `onText` receives). */
  | { readonly type: "text"; readonly delta: string }
  /** A message was durably appended to the log. */
  | { readonly type: "persisted"; readonly message: StoredMessage }
  /** The request for a model call was built; `result.report` explains every item. */
  | { readonly type: "built"; readonly turn: number; readonly result: BuildResult<unknown> }
  /** Compression made summary records; they are persisted before the model is called. */
  | { readonly type: "summarized"; readonly records: ReadonlyArray<SummaryRecord> }
  /**
   * Texts the build cut or cleared were kept whole (in the store, or in memory for the call) before the
   * model is called; `retrieve_context` reads them back by handle. Without the texts themselves.
   */
  | { readonly type: "offloaded"; readonly offloaded: ReadonlyArray<OffloadedInfo> }
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
  | { readonly type: "tool-ran"; readonly call: ModelToolCall; readonly content: string; readonly isError: boolean; readonly durationMs: number }
  /**
   * A call of the log's newest answer had no result when this loop call started (the process that
   * made it stopped first). `settledBy` says what the loop does: "answer" persists a result saying the
   * call was interrupted and not run again, "rerun" runs the tool again and persists its result.
   */
  | { readonly type: "call-interrupted"; readonly call: ModelToolCall; readonly settledBy: "answer" | "rerun" };

/** A loop event as listeners receive it: numbered 1, 2, 3… within one loop call, in emission order. */
export type LoopEvent = LoopEventBody & { readonly sequence: number };

export type LoopEventListener = (event: LoopEvent) => void;

/** What a loop call emits through: numbers every event and sends text deltas to `onText` as well. */
export interface LoopEventEmitter {
  emit(event: LoopEventBody): void;
  /** A text delta: `onText` gets it, and listeners get it as a "text" event. */
  text(delta: string): void;
  /** The sequence number of the last event emitted (0 before the first). */
  readonly sequence: number;
}

/** One emitter per loop call: its numbers start at 1. */
export function loopEventEmitter(listeners: { readonly onEvent?: LoopEventListener; readonly onText?: (delta: string) => void }): LoopEventEmitter {
  let sequence = 0;
  const emit = (event: LoopEventBody) => {
    sequence++;
    listeners.onEvent?.({ ...event, sequence });
  };
  return {
    emit,
    text(delta) {
      listeners.onText?.(delta);
      emit({ type: "text", delta });
    },
    get sequence() {
      return sequence;
    },
  };
}
