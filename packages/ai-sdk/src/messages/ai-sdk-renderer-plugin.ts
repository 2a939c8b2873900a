// Renderer for the Vercel AI SDK, registered under the renderer name "ai-sdk": the items become
// `{ system, messages: ModelMessage[] }`, ready for generateText, streamText or an agent's prepareStep.
// It also checks every request it renders against aiSdkRules (validateRequest).
import { checkRules, type PipelinePlugin, type PluginHost, parsePluginOptions, STAGE, type Tokenizer } from "@ctxpipe/core";
import { z } from "zod";
import type { AiSdkRequest } from "./ai-sdk-request.js";
import { aiSdkRules } from "./ai-sdk-rules.js";
import { AI_SDK_REPLY_PRIMING, countAiSdkContentTokens, countAiSdkMessageFraming, countAiSdkToolTokens } from "./count-ai-sdk-tokens.js";
import { type AiSdkRenderCache, type RenderedModelMessages, renderModelMessages } from "./render-model-messages.js";
import "./renderer-output-map.js";

const PLUGIN_NAME = "AiSdkRendererPlugin";

const aiSdkRendererPluginOptionsSchema = z.strictObject({
  /**
   * A system message stored after the conversation started: "system" (default) moves it into the
   * request's `system`; "user" sends it where it was, as user text labelled "[System message]".
   */
  laterSystemMessages: z.enum(["system", "user"]).default("system"),
  stage: z.number().default(STAGE.DEFAULT),
});

export type AiSdkRendererPluginOptions = z.input<typeof aiSdkRendererPluginOptionsSchema>;

export class AiSdkRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof aiSdkRendererPluginOptionsSchema>;
  // What an item renders to is cached per item, and its token count per rendered content: an agent
  // loop's rebuild renders and counts only the new items, not the whole history again.
  readonly #rendered: AiSdkRenderCache = new WeakMap();
  readonly #contentTokens = new WeakMap<Tokenizer, WeakMap<object, number>>();

  constructor(options: AiSdkRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, aiSdkRendererPluginOptionsSchema, options);
  }

  /** The request's tokens, counted as countAiSdkRequestTokens counts them, with each item's share cached. */
  #count(rendered: RenderedModelMessages, tokenizer: Tokenizer): number {
    let cache = this.#contentTokens.get(tokenizer);
    if (cache === undefined) {
      cache = new WeakMap();
      this.#contentTokens.set(tokenizer, cache);
    }
    let total = AI_SDK_REPLY_PRIMING;
    if (rendered.system !== undefined) total += countAiSdkMessageFraming("system", tokenizer) + tokenizer.count(rendered.system);
    for (const message of rendered.messages) total += countAiSdkMessageFraming(message.role, tokenizer);
    for (const part of rendered.parts) {
      if ("system" in part) continue;
      let tokens = cache.get(part.content);
      if (tokens === undefined) {
        tokens = countAiSdkContentTokens(part.content.content, tokenizer);
        cache.set(part.content, tokens);
      }
      total += tokens;
    }
    return total;
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    pipeline.hooks.render.for("ai-sdk").tap(tap, (items, context) => {
      const rendered = renderModelMessages(items, { laterSystemMessages: this.#options.laterSystemMessages, cache: this.#rendered });
      for (const { item, reason } of rendered.dropped) context.report.drop(item, reason);
      for (const { item, reason } of rendered.repaired) context.report.repair(item, reason);
      const request: AiSdkRequest = rendered.system === undefined ? { messages: rendered.messages } : { system: rendered.system, messages: rendered.messages };
      return {
        request,
        tokenCount: this.#count(rendered, context.tokenizer) + countAiSdkToolTokens(context.tools, context.tokenizer),
        messageCount: rendered.messages.length + (rendered.system === undefined ? 0 : 1),
        messageIndexById: rendered.messageIndexById,
        prefix: { system: request.system, messages: request.messages },
      };
    });

    pipeline.hooks.validateRequest.for("ai-sdk").tap(tap, (request, context) => {
      for (const violation of checkRules(aiSdkRules, request, { model: context.model })) context.issue(violation);
    });
  }
}
