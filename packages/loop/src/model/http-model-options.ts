// The options the HTTP adapters share, validated with zod so a mistake names its field, and the
// environment lookups that fill in what the options leave out.
import { PluginOptionsError } from "@ctxpipe/core";
import { z } from "zod";

/** Environment variables, as in process.env. */
export type ModelEnvironment = Readonly<Record<string, string | undefined>>;

/** Ten minutes, as the providers' own SDKs wait: long answers stream for minutes. */
export const DEFAULT_TIMEOUT_MS = 600_000;

export const httpModelOptionsShape = {
  /** The model name sent in every request. */
  model: z.string().min(1),
  baseURL: z.string().min(1).optional(),
  apiKey: z.string().optional(),
  /** Extra headers; they replace the adapter's own headers of the same name. */
  headers: z.record(z.string(), z.string()).optional(),
  stream: z.boolean().default(true),
  // setTimeout cannot wait longer than 2^31 - 1 ms.
  timeoutMs: z.number().int().positive().max(2_147_483_647).default(DEFAULT_TIMEOUT_MS),
  maxTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).optional(),
  /** Extra fields for the request body. */
  body: z.record(z.string(), z.unknown()).optional(),
  env: z.custom<ModelEnvironment>((value) => typeof value === "object" && value !== null, "must be an object of environment variables").optional(),
};

function fromEnvironment(env: ModelEnvironment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The base URL from the option, else the environment variable, else the provider's; without trailing slashes. */
export function resolveBaseURL(factory: string, option: string | undefined, env: ModelEnvironment, variable: string, fallback: string): string {
  const source = option !== undefined ? "baseURL" : `baseURL (from ${variable})`;
  const value = option ?? fromEnvironment(env, variable) ?? fallback;
  const invalid = () => new PluginOptionsError(factory, `✖ ${JSON.stringify(value)} is not an http(s) URL\n  → at ${source}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid();
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid();
  return value.replace(/\/+$/, "");
}

/** The API key from the option, else the environment variable; none at all is allowed (local servers). */
export function resolveApiKey(option: string | undefined, env: ModelEnvironment, variable: string): string | undefined {
  return option ?? fromEnvironment(env, variable);
}

export function defaultEnvironment(): ModelEnvironment {
  return typeof process === "undefined" ? {} : process.env;
}

/** The options every HTTP adapter has, besides its model, address, key, output length and extra body fields. */
export interface HttpModelCommonOptions {
  /** Extra headers; they replace the adapter's own of the same name. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Stream the answer (SSE) and call onText per text delta. Default true. */
  readonly stream?: boolean;
  /** The whole call, reading the answer included, must end within this time. Default 600000 (10 minutes). */
  readonly timeoutMs?: number;
  readonly temperature?: number;
  /** Where the adapter's base URL and API key variables are read. Default process.env. */
  readonly env?: ModelEnvironment;
}

/** The headers of an OpenAI API (Chat Completions or Responses): JSON in, SSE or JSON out, the key as a Bearer token. */
export function bearerJsonHeaders(stream: boolean, apiKey: string | undefined, extra: Readonly<Record<string, string>> | undefined): Headers {
  return mergeHeaders(
    {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
      ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
    },
    extra,
  );
}

/** The adapter's headers, then the caller's, replacing by name whatever the case. */
export function mergeHeaders(own: Record<string, string>, extra: Readonly<Record<string, string>> | undefined): Headers {
  const headers = new Headers(own);
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return headers;
}

/** Which reader the answer needs: the content type decides, else what was asked for. */
export function isEventStream(response: Response, streamed: boolean): boolean {
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream")) return true;
  if (type.includes("json")) return false;
  return streamed;
}
