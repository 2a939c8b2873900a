// What a loop event stream sends for each event: the event as JSON, less what a UI has no use for
// and a wire should not carry (a build's whole request and report).
import type { LoopResult } from "../loop/loop-result.js";
import type { LoopEvent } from "../loop/loop-events.js";

function errorData(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, status, retryable, retryAfterMs } = error as Error & { code?: unknown; status?: unknown; retryable?: unknown; retryAfterMs?: unknown };
  return {
    name: error.name,
    ...(code === undefined ? {} : { code }),
    message: error.message,
    ...(status === undefined ? {} : { status }),
    ...(retryable === undefined ? {} : { retryable }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/**
 * The default `data` of each event: the event itself, except that "built" carries the build's counts
 * and ids instead of its request and report, and "model-failed" its error's name, code, message,
 * status, retryable and retryAfterMs.
 */
export function streamEventData(event: LoopEvent): unknown {
  if (event.type === "built") {
    const { result, ...rest } = event;
    const { tokenCount, tokenCountExact, includedIds, excludedIds } = result;
    return { ...rest, tokenCount, tokenCountExact, includedIds, excludedIds };
  }
  if (event.type === "model-failed") return { ...event, error: errorData(event.error) };
  return event;
}

/** The `end` event's data: how the loop call ended, or the error it threw (status "error"). */
export type StreamEndData =
  | { readonly type: "end"; readonly sequence: number; readonly status: LoopResult["status"]; readonly text: string; readonly turns: number; readonly usage: LoopResult["usage"]; readonly error?: Record<string, unknown> }
  | { readonly type: "end"; readonly sequence: number; readonly status: "error"; readonly error: Record<string, unknown> };

export function streamEndData(sequence: number, outcome: { result: LoopResult } | { error: unknown }): StreamEndData {
  if ("error" in outcome) return { type: "end", sequence, status: "error", error: errorData(outcome.error) };
  const { status, text, turns, usage, error } = outcome.result;
  return { type: "end", sequence, status, text, turns, usage, ...(error === undefined ? {} : { error: errorData(error) }) };
}
