// The base of every error ctxpipe throws. `isInstance` works across duplicate copies of the package,
// where `instanceof` would not (a plugin may bundle its own copy of core).
import type { ErrorCode } from "./error-codes.js";

const MARKER = Symbol.for("ctxpipe.error");

export class CtxpipeError extends Error {
  readonly [MARKER] = true;
  /** One of ERROR_CODES for errors core raises; plugin packages add codes of their own. */
  readonly code: ErrorCode | (string & {});

  constructor(code: ErrorCode | (string & {}), message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CtxpipeError";
    this.code = code;
  }

  static isInstance(value: unknown): value is CtxpipeError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
