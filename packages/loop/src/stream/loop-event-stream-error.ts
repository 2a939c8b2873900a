// Why a loop event stream refused an event or a reconnect. `field` names what was wrong: the header or
// query parameter a client resumed with, or the event's sequence.
import { CtxpipeError } from "@ctxpipe/core";

export const LOOP_EVENT_STREAM_ERROR_CODES = ["LOOP_EVENTS_EVICTED", "LOOP_EVENTS_OUT_OF_ORDER", "LOOP_EVENTS_RESUME_INVALID"] as const;
export type LoopEventStreamErrorCode = (typeof LOOP_EVENT_STREAM_ERROR_CODES)[number];

export class LoopEventStreamError extends CtxpipeError {
  declare readonly code: LoopEventStreamErrorCode;
  /** "Last-Event-ID", "after" or "sequence". */
  readonly field: string;

  constructor(code: LoopEventStreamErrorCode, field: string, message: string) {
    super(code, `${field}: ${message}`);
    this.name = "LoopEventStreamError";
    this.field = field;
  }
}
