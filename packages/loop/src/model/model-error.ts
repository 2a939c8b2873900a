// A failed model call. Codes start with "LLM_" (chat and run mode persist exactly those as an assistant error
// message so the user can say "continue"); the fingerprint lets the loop see the same failure repeat.
import { CtxpipeError } from "@ctxpipe/core";

export const MODEL_ERROR_CODES = [
  /** The endpoint answered with an error status. */
  "LLM_HTTP_ERROR",
  /** The endpoint could not be reached, or the connection broke. */
  "LLM_NETWORK_ERROR",
  /** No complete answer within the adapter's timeout. */
  "LLM_TIMEOUT",
  /** The answer is not what the protocol says it should be. */
  "LLM_BAD_RESPONSE",
  /** The caller's AbortSignal fired. */
  "LLM_ABORTED",
  /** A scripted model ran out of script, or was scripted to fail. */
  "LLM_SCRIPT_ERROR",
] as const;

export type ModelErrorCode = (typeof MODEL_ERROR_CODES)[number];

export interface ModelErrorDetails {
  /** The adapter's name. */
  readonly model: string;
  /** HTTP status, for LLM_HTTP_ERROR. */
  readonly status?: number;
  /** The provider's own error type or code, e.g. "rate_limit_error", "overloaded_error". */
  readonly providerCode?: string;
  /** Whether trying again later may succeed (429, 5xx, network, timeout). */
  readonly retryable?: boolean;
  /** How long the provider asked to wait before trying again (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

export class ModelError extends CtxpipeError {
  declare readonly code: ModelErrorCode;
  readonly model: string;
  declare readonly status?: number;
  declare readonly providerCode?: string;
  readonly retryable: boolean;
  declare readonly retryAfterMs?: number;

  constructor(code: ModelErrorCode, message: string, details: ModelErrorDetails) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "ModelError";
    this.model = details.model;
    // Own properties only when known, so that a logged error shows no empty fields.
    if (details.status !== undefined) Object.defineProperty(this, "status", { value: details.status, enumerable: true });
    if (details.providerCode !== undefined) Object.defineProperty(this, "providerCode", { value: details.providerCode, enumerable: true });
    this.retryable = details.retryable ?? false;
    if (details.retryAfterMs !== undefined) Object.defineProperty(this, "retryAfterMs", { value: details.retryAfterMs, enumerable: true });
  }

  /** The same failure gives the same fingerprint: code, status, provider code and message (not the wait it asked for). */
  get fingerprint(): string {
    return [this.code, this.status ?? "", this.providerCode ?? "", this.message].join("|");
  }
}
