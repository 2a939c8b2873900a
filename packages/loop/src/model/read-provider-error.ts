// Reads the error a provider sends, in an HTTP error body or inside a stream. OpenAI and most
// compatible servers send {error:{message,type,code}}, Anthropic {type:"error",error:{type,message}};
// other servers send {error:"..."}, {message}, {detail} or plain text.
import { ModelError } from "./model-error.js";

export interface ProviderError {
  readonly message: string;
  /** The provider's error code, or its error type when it has no code. */
  readonly providerCode?: string;
}

/** Error types that say the provider is busy or failing, not that the request is wrong. */
const RETRYABLE_PROVIDER_CODES = new Set(["api_error", "overloaded_error", "rate_limit_error", "rate_limit_exceeded", "server_error", "timeout_error"]);

const RETRYABLE_STATUSES = new Set([408, 409, 429]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status) || status >= 500;
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** Reads an already parsed error document; undefined when it holds no recognisable error. */
export function readProviderError(document: unknown): ProviderError | undefined {
  const error = field(document, "error");
  if (text(error) !== undefined) return { message: error as string };
  const source = typeof error === "object" && error !== null ? error : document;
  const message = text(field(source, "message")) ?? text(field(document, "message")) ?? text(field(document, "detail"));
  if (message === undefined) return undefined;
  const code = field(source, "code");
  const type = field(source, "type");
  const providerCode = text(code) ?? (typeof code === "number" ? String(code) : undefined) ?? (type === "error" ? undefined : text(type));
  return providerCode === undefined ? { message } : { message, providerCode };
}

/** Reads an HTTP error body, falling back to its text. */
export function readProviderErrorBody(body: string): ProviderError {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    document = undefined;
  }
  const error = readProviderError(document);
  if (error !== undefined) return error;
  const trimmed = body.trim();
  if (trimmed === "") return { message: "(empty body)" };
  return { message: trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed };
}

/**
 * An error the provider reported with HTTP 200: in a stream that had started well, or as the whole
 * answer. It is the failure an error status would have reported, so it gets the same code.
 */
export function reportedProviderError(adapter: string, error: ProviderError, where: "stream" | "answer"): ModelError {
  const code = error.providerCode;
  return new ModelError("LLM_HTTP_ERROR", `${adapter}: the ${where} reported ${code ?? "an error"}: ${error.message}`, {
    model: adapter,
    ...(code === undefined ? {} : { providerCode: code }),
    retryable: code !== undefined && RETRYABLE_PROVIDER_CODES.has(code),
  });
}
