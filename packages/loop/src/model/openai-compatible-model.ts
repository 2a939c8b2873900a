// A ModelAdapter for any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure-style gateways,
// vLLM, Ollama, llama.cpp, LM Studio …), spoken over the runtime's fetch with no SDK.
import type { OpenAIChatRequest } from "@ctxpipe/core";
import { parsePluginOptions } from "@ctxpipe/core";
import { z } from "zod";
import { bearerJsonHeaders, defaultEnvironment, type HttpModelCommonOptions, httpModelOptionsShape, isEventStream, resolveApiKey, resolveBaseURL } from "./http-model-options.js";
import type { ModelAdapter, ModelCall, ModelReply } from "./model-adapter.js";
import { postToModel } from "./post-to-model.js";
import { readOpenAIReply } from "./read-openai-reply.js";
import { readOpenAIStream } from "./read-openai-stream.js";
import { badResponse } from "./reply-context.js";

const FACTORY = "openAICompatibleModel";
const DEFAULT_BASE_URL = "https://api.openai.com/v1";

const optionsSchema = z.strictObject(httpModelOptionsShape);

/** `env`: where OPENAI_BASE_URL and OPENAI_API_KEY are read. */
export interface OpenAICompatibleModelOptions extends HttpModelCommonOptions {
  /** The model name sent in every request; it replaces the request's own `model`. */
  readonly model: string;
  /** Default: env OPENAI_BASE_URL, else "https://api.openai.com/v1". The adapter POSTs to {baseURL}/chat/completions. */
  readonly baseURL?: string;
  /** Sent as "Authorization: Bearer …". Default: env OPENAI_API_KEY; with neither, no Authorization header (local servers). */
  readonly apiKey?: string;
  /** Sent as `max_tokens`. OpenAI's reasoning models want `max_completion_tokens`: pass that in `body`. */
  readonly maxTokens?: number;
  /**
   * Extra request fields (top_p, response_format, parallel_tool_calls …). They cannot replace
   * messages, tools, model or stream; they can replace stream_options.
   */
  readonly body?: Readonly<Record<string, unknown>>;
}

export function openAICompatibleModel(options: OpenAICompatibleModelOptions): ModelAdapter<"openai"> {
  const settings = parsePluginOptions(FACTORY, optionsSchema, options);
  const env = settings.env ?? defaultEnvironment();
  const baseURL = resolveBaseURL(FACTORY, settings.baseURL, env, "OPENAI_BASE_URL", DEFAULT_BASE_URL);
  const apiKey = resolveApiKey(settings.apiKey, env, "OPENAI_API_KEY");
  const name = `openai-compatible (${settings.model})`;
  const url = `${baseURL}/chat/completions`;
  const { stream } = settings;
  const headers = bearerJsonHeaders(stream, apiKey, settings.headers);

  return {
    name,
    renderer: "openai",
    model: settings.model,
    complete({ request, signal, onText }: ModelCall<OpenAIChatRequest>): Promise<ModelReply> {
      const body = {
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        ...settings.body,
        ...request,
        model: settings.model,
        ...(settings.maxTokens === undefined ? {} : { max_tokens: settings.maxTokens }),
        ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
        ...(stream ? { stream: true } : {}),
      };
      const context = { adapter: name, onText };
      return postToModel({ adapter: name, url, headers, body, signal, timeoutMs: settings.timeoutMs }, async (response) => {
        if (!isEventStream(response, stream)) return readOpenAIReply(await response.text(), context);
        if (response.body === null) throw badResponse(context, "the answer has no body");
        return readOpenAIStream(response.body, context);
      });
    },
  };
}
