// A ModelAdapter for the Anthropic Messages API, spoken over the runtime's fetch with no SDK.
import { parsePluginOptions } from "@ctxpipe/core";
import type { AnthropicMessagesRequest } from "@ctxpipe/renderers";
import { z } from "zod";
import { defaultEnvironment, httpModelOptionsShape, isEventStream, mergeHeaders, type ModelEnvironment, resolveApiKey, resolveBaseURL } from "./http-model-options.js";
import type { ModelAdapter, ModelCall, ModelReply } from "./model-adapter.js";
import { postToModel } from "./post-to-model.js";
import { readAnthropicReply } from "./read-anthropic-reply.js";
import { readAnthropicStream } from "./read-anthropic-stream.js";
import { badResponse } from "./reply-context.js";

const FACTORY = "anthropicModel";
const DEFAULT_BASE_URL = "https://api.anthropic.com";
/** The API version this adapter's reading of the protocol follows. */
export const ANTHROPIC_VERSION = "2023-06-01";
/** The API requires max_tokens; used when neither the option nor the request gives one. */
const DEFAULT_MAX_TOKENS = 4096;

const optionsSchema = z.strictObject({ ...httpModelOptionsShape, anthropicVersion: z.string().min(1).default(ANTHROPIC_VERSION) });

export interface AnthropicModelOptions {
  /** The model name sent in every request; it replaces the request's own `model`. */
  readonly model: string;
  /** Default: env ANTHROPIC_BASE_URL, else "https://api.anthropic.com". The adapter POSTs to {baseURL}/v1/messages. */
  readonly baseURL?: string;
  /** Sent as x-api-key. Default: env ANTHROPIC_API_KEY; with neither, no x-api-key header (a local proxy). */
  readonly apiKey?: string;
  /** The anthropic-version header. Default "2023-06-01". */
  readonly anthropicVersion?: string;
  /** Extra headers (anthropic-beta …); they replace the adapter's own of the same name. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Stream the answer (SSE) and call onText per text delta. Default true. */
  readonly stream?: boolean;
  /** The whole call, reading the answer included, must end within this time. Default 600000 (10 minutes). */
  readonly timeoutMs?: number;
  /** max_tokens; replaces the request's (the renderer's maxTokens or reserveOutputTokens). Default: the request's, else 4096. */
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** Extra request fields (top_k, metadata, thinking …). They cannot replace messages, system, tools, model or stream. */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Where ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY are read. Default process.env. */
  readonly env?: ModelEnvironment;
}

export function anthropicModel(options: AnthropicModelOptions): ModelAdapter<"anthropic"> {
  const settings = parsePluginOptions(FACTORY, optionsSchema, options);
  const env = settings.env ?? defaultEnvironment();
  const baseURL = resolveBaseURL(FACTORY, settings.baseURL, env, "ANTHROPIC_BASE_URL", DEFAULT_BASE_URL);
  const apiKey = resolveApiKey(settings.apiKey, env, "ANTHROPIC_API_KEY");
  const name = `anthropic (${settings.model})`;
  const url = `${baseURL}/v1/messages`;
  const { stream } = settings;
  const headers = mergeHeaders(
    {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
      "anthropic-version": settings.anthropicVersion,
      ...(apiKey === undefined ? {} : { "x-api-key": apiKey }),
    },
    settings.headers,
  );

  return {
    name,
    renderer: "anthropic",
    model: settings.model,
    complete({ request, signal, onText }: ModelCall<AnthropicMessagesRequest>): Promise<ModelReply> {
      // The type says max_tokens is there; a hand-written request may still leave it out.
      const requestMaxTokens: number | undefined = request.max_tokens;
      const body = {
        ...settings.body,
        ...request,
        model: settings.model,
        max_tokens: settings.maxTokens ?? requestMaxTokens ?? DEFAULT_MAX_TOKENS,
        ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
        ...(stream ? { stream: true } : {}),
      };
      const context = { adapter: name, onText };
      return postToModel({ adapter: name, url, headers, body, signal, timeoutMs: settings.timeoutMs }, async (response) => {
        if (!isEventStream(response, stream)) return readAnthropicReply(await response.text(), context);
        if (response.body === null) throw badResponse(context, "the answer has no body");
        return readAnthropicStream(response.body, context);
      });
    },
  };
}
