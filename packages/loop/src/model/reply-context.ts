// What the protocol readers share while they turn an answer into a ModelReply: the adapter's name
// for errors, and the caller's onText callback.
import { ModelError } from "./model-error.js";

export interface ReplyContext {
  /** The adapter's name, e.g. "openai-compatible (gpt-4o-mini)". */
  readonly adapter: string;
  readonly onText: ((delta: string) => void) | undefined;
}

/**
 * Carries an error thrown by the caller's own onText out of the HTTP exchange untouched: it is the
 * caller's failure, not the model's, so it must not be reported as a broken connection.
 */
export class CallbackFailure {
  constructor(readonly error: unknown) {}
}

export function emitText(context: ReplyContext, delta: string): void {
  if (delta === "" || context.onText === undefined) return;
  try {
    context.onText(delta);
  } catch (error) {
    throw new CallbackFailure(error);
  }
}

export function badResponse(context: ReplyContext, message: string, cause?: unknown): ModelError {
  return new ModelError("LLM_BAD_RESPONSE", `${context.adapter}: ${message}`, { model: context.adapter, ...(cause === undefined ? {} : { cause }) });
}

/** A stream that ends before its end marker: the connection was cut, so trying again may work. */
export function incompleteStream(context: ReplyContext, marker: string): ModelError {
  return new ModelError("LLM_NETWORK_ERROR", `${context.adapter}: the stream ended before ${marker}: the answer is incomplete`, {
    model: context.adapter,
    retryable: true,
  });
}

/** Parses one JSON document of the answer, or says which part of the answer is not JSON. */
export function parseAnswerJson(context: ReplyContext, text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw badResponse(context, `${what} is not JSON: ${JSON.stringify(shown)}`, error);
  }
}
