// A ModelAdapter for OpenAI's Responses API (POST /v1/responses) and the servers that speak it, over the
// runtime's fetch with no SDK. Besides the text and calls, a reply carries what the next request must send
// back (reasoning items, item ids) as `extra.openaiResponses`, which the loop stores on the assistant message.
import { PluginOptionsError, parsePluginOptions } from "@ctxpipe/core";
import type { OpenAIResponsesRequest } from "@ctxpipe/renderers";
import { z } from "zod";
import { bearerJsonHeaders, defaultEnvironment, type HttpModelCommonOptions, httpModelOptionsShape, isEventStream, resolveApiKey, resolveBaseURL } from "./http-model-options.js";
import type { ModelAdapter, ModelCall, ModelReply } from "./model-adapter.js";
import { postToModel } from "./post-to-model.js";
import { readOpenAIResponsesReply } from "./read-openai-responses-reply.js";
import { readOpenAIResponsesStream } from "./read-openai-responses-stream.js";
import { badResponse } from "./reply-context.js";

const FACTORY = "openAIResponsesModel";
const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The request's own fields: the build writes them, so `body` cannot replace them. */
const REQUEST_FIELDS = ["input", "instructions", "tools", "model", "stream"] as const;

/** The least max_output_tokens the Responses API takes (RSP-021; @ctxpipe/renderers' OPENAI_RESPONSES_MIN_OUTPUT_TOKENS). */
const MIN_OUTPUT_TOKENS = 16;

const { maxTokens: _maxTokens, body: _body, ...sharedShape } = httpModelOptionsShape;
const optionsSchema = z.strictObject({
  ...sharedShape,
  // It replaces the request's value, so one the API refuses is refused here, as the renderer's option is.
  maxOutputTokens: z.number().int().min(MIN_OUTPUT_TOKENS, `the Responses API takes a max_output_tokens of ${MIN_OUTPUT_TOKENS} or more`).optional(),
  body: z
    .record(z.string(), z.unknown())
    .superRefine((body, context) => {
      for (const field of REQUEST_FIELDS) {
        if (field in body) context.addIssue({ code: "custom", path: [field], message: `${field} comes from the build (or the model option); the body cannot set it` });
      }
    })
    .optional(),
});

/** `env`: where OPENAI_BASE_URL and OPENAI_API_KEY are read. */
export interface OpenAIResponsesModelOptions extends HttpModelCommonOptions {
  /** The model name sent in every request; it replaces the request's own `model`. */
  readonly model: string;
  /** Default: env OPENAI_BASE_URL, else "https://api.openai.com/v1". The adapter POSTs to {baseURL}/responses. */
  readonly baseURL?: string;
  /** Sent as "Authorization: Bearer …". Default: env OPENAI_API_KEY; with neither, no Authorization header (local servers). */
  readonly apiKey?: string;
  /** Sent as `max_output_tokens`, replacing the request's (the renderer's option or the build's reserve): 16 or more, the API's minimum. */
  readonly maxOutputTokens?: number;
  /**
   * Extra request fields: `store`, `include`, `reasoning`, `text`, `parallel_tool_calls`, `truncation` …
   * Not input, instructions, tools, model or stream, which the build and the options write. With
   * `store: false`, ask for `include: ["reasoning.encrypted_content"]` so a reasoning model's reasoning
   * can be sent back on the next turn, and give the renderer `store: false` too
   * (`new OpenAIResponsesRendererPlugin({ store: false })`): the build then leaves out what the API
   * would have to find in its storage. A request built without it is refused before it is sent.
   */
  readonly body?: Readonly<Record<string, unknown>>;
}

export function openAIResponsesModel(options: OpenAIResponsesModelOptions): ModelAdapter<"openai-responses"> {
  const settings = parsePluginOptions(FACTORY, optionsSchema, options);
  const env = settings.env ?? defaultEnvironment();
  const baseURL = resolveBaseURL(FACTORY, settings.baseURL, env, "OPENAI_BASE_URL", DEFAULT_BASE_URL);
  const apiKey = resolveApiKey(settings.apiKey, env, "OPENAI_API_KEY");
  const name = `openai-responses (${settings.model})`;
  const url = `${baseURL}/responses`;
  const { stream } = settings;
  const headers = bearerJsonHeaders(stream, apiKey, settings.headers);

  return {
    name,
    renderer: "openai-responses",
    model: settings.model,
    complete({ request, signal, onText }: ModelCall<OpenAIResponsesRequest>): Promise<ModelReply> {
      const body: Record<string, unknown> = {
        ...settings.body,
        ...request,
        model: settings.model,
        ...(settings.maxOutputTokens === undefined ? {} : { max_output_tokens: settings.maxOutputTokens }),
        ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
        ...(stream ? { stream: true } : {}),
      };
      // The build decides what goes back from earlier turns; with store: false the API keeps none of them,
      // so the build must know (RSP-023), or a later turn fails at the API with an item it cannot find.
      if (settings.body?.store === false && request.store !== false) {
        return Promise.reject(
          new PluginOptionsError(
            FACTORY,
            "body.store is false, but the request was built for a stored conversation: give the renderer the same option (new OpenAIResponsesRendererPlugin({ store: false })), so the build leaves out the reasoning and item references the API cannot find without storage",
          ),
        );
      }
      const context = { adapter: name, onText, stored: body.store !== false };
      return postToModel({ adapter: name, url, headers, body, signal, timeoutMs: settings.timeoutMs }, async (response) => {
        if (!isEventStream(response, stream)) return readOpenAIResponsesReply(await response.text(), context);
        if (response.body === null) throw badResponse(context, "the answer has no body");
        return readOpenAIResponsesStream(response.body, context);
      });
    },
  };
}
