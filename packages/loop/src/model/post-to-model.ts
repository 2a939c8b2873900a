// One HTTP exchange with a model endpoint: POST the JSON body, then let a reader consume the answer,
// all under one deadline and the caller's AbortSignal. Whatever goes wrong leaves as a ModelError.
import { ModelError } from "./model-error.js";
import { isRetryableStatus, readProviderErrorBody } from "./read-provider-error.js";
import { readRetryAfter } from "./read-retry-after.js";
import { CallbackFailure } from "./reply-context.js";

export interface ModelPost {
  /** The adapter's name, for errors. */
  readonly adapter: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;
  /** The whole exchange, reading the answer included, must end within this time. */
  readonly timeoutMs: number;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" or "terminated" and keeps the reason (ECONNREFUSED, other side closed) in cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

async function httpError(adapter: string, response: Response): Promise<ModelError> {
  let body = "";
  try {
    body = await response.text();
  } catch {
    // The status says enough when the error body cannot be read.
  }
  const { message, providerCode } = readProviderErrorBody(body);
  const status = response.status;
  const retryable = isRetryableStatus(status);
  // Only a failure worth retrying says when to retry; a 400's Retry-After would invite a pointless retry.
  const retryAfterMs = retryable ? readRetryAfter(response.headers, Date.now()) : undefined;
  const statusText = response.statusText === "" ? "" : ` ${response.statusText}`;
  return new ModelError("LLM_HTTP_ERROR", `${adapter}: HTTP ${status}${statusText}: ${message}`, {
    model: adapter,
    status,
    ...(providerCode === undefined ? {} : { providerCode }),
    retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

export async function postToModel<T>(post: ModelPost, read: (response: Response) => Promise<T>): Promise<T> {
  const { adapter, signal } = post;
  if (signal?.aborted) throw new ModelError("LLM_ABORTED", `${adapter}: the call was aborted before it started`, { model: adapter, cause: signal.reason });
  let json: string;
  try {
    json = JSON.stringify(post.body);
  } catch (error) {
    // Nothing left the process; no code says "bad request", and this one at least says it was not sent.
    throw new ModelError("LLM_NETWORK_ERROR", `${adapter}: the request was not sent: it cannot be written as JSON (${describe(error)})`, {
      model: adapter,
      cause: error,
    });
  }

  // One controller aborts the request for both reasons; stoppedBy remembers which came first.
  const controller = new AbortController();
  let stoppedBy: "timeout" | "caller" | undefined;
  const onAbort = () => {
    stoppedBy ??= "caller";
    controller.abort(signal?.reason);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    stoppedBy ??= "timeout";
    controller.abort();
  }, post.timeoutMs);
  let answered = false;
  try {
    const response = await fetch(post.url, { method: "POST", headers: post.headers, body: json, signal: controller.signal });
    answered = true;
    if (!response.ok) throw await httpError(adapter, response);
    return await read(response);
  } catch (error) {
    if (error instanceof CallbackFailure) throw error.error;
    if (stoppedBy === "timeout") {
      throw new ModelError("LLM_TIMEOUT", `${adapter}: no complete answer within ${post.timeoutMs} ms`, { model: adapter, retryable: true, cause: error });
    }
    if (stoppedBy === "caller") throw new ModelError("LLM_ABORTED", `${adapter}: the call was aborted`, { model: adapter, cause: signal?.reason });
    if (error instanceof ModelError) throw error;
    const where = answered ? "the connection broke while the answer was read" : `could not reach ${post.url}`;
    throw new ModelError("LLM_NETWORK_ERROR", `${adapter}: ${where}: ${describe(error)}`, { model: adapter, retryable: true, cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    // Stops whatever is still in flight after a failure; after a complete answer there is nothing left to stop.
    controller.abort();
  }
}
