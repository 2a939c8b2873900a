// How long the loop waits before retrying a failed model call: the wait the provider asked for
// (Retry-After), else exponential backoff with jitter; never longer than the cap.
import type { ModelError } from "../model/model-error.js";
import { abortableDelay } from "./abortable-delay.js";

export interface RetryTiming {
  /** The longest wait before a retry, Retry-After included. */
  readonly maxDelayMs: number;
  /** Waits before a retry; it should return early when the signal fires. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The jitter's random source, in [0, 1). */
  readonly random: () => number;
}

/** The longest wait before a retry unless the loop options say otherwise: one minute. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

export const defaultRetryTiming: RetryTiming = { maxDelayMs: DEFAULT_MAX_RETRY_DELAY_MS, sleep: abortableDelay, random: Math.random };

/**
 * The wait before retry number `retry` (1 for the first), or undefined when the provider asked for a
 * longer wait than the cap: retrying sooner than asked would fail again, so the call fails now and the
 * error's retryAfterMs says when to come back.
 */
export function retryDelay(error: ModelError, retry: number, baseDelayMs: number, timing: RetryTiming): number | undefined {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs <= timing.maxDelayMs ? error.retryAfterMs : undefined;
  const ceiling = Math.min(timing.maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  // Up to a quarter off, so that clients that failed together do not all retry together.
  return Math.round(ceiling * (1 - 0.25 * timing.random()));
}
