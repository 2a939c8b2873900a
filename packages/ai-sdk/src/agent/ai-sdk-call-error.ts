// Raised when prepareStep or the middleware is called with something that is not the AI SDK's step
// or call: a clear error naming what was expected, rather than a TypeError from deep inside a build.
import { CtxpipeError, ERROR_CODES } from "@ctxpipe/core";

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** Code `INPUT_INVALID`: `where` is "prepareStep" or "middleware", `field` what was missing or wrong. */
export class AiSdkCallError extends CtxpipeError {
  readonly where: "prepareStep" | "middleware";
  readonly field: string;

  constructor(where: "prepareStep" | "middleware", field: string, expected: string, got: unknown) {
    super(ERROR_CODES.INPUT_INVALID, `@ctxpipe/ai-sdk: ${where} was given ${field} ${describe(got)}, expected ${expected}. Pass the context's ${where} to the AI SDK, which calls it with each step.`);
    this.name = "AiSdkCallError";
    this.where = where;
    this.field = field;
  }
}
