// Default renderer: OpenAI Chat Completions, registered under the renderer name "openai".
import { z } from "zod";
import type { PipelinePlugin, PluginHost } from "../../pipeline/pipeline-hooks.js";
import { STAGE } from "../../pipeline/stage.js";
import { parsePluginOptions } from "../../plugins/parse-plugin-options.js";
import type { Item } from "../../model/item.js";
import type { Tokenizer } from "../../spec/tokenizer.js";
import { countOpenAIChatMessageTokens, countOpenAIChatTokens } from "./count-openai-chat-tokens.js";
import type { OpenAIChatMessage, OpenAIChatRequest } from "./openai-chat-request.js";
import { renderOpenAIChatMessage } from "./render-openai-chat-message.js";

const PLUGIN_NAME = "OpenAIChatRendererPlugin";

const openAIChatRendererPluginOptionsSchema = z.strictObject({
  /** "developer" for o1 and newer reasoning models that reject "system". */
  systemRole: z.enum(["system", "developer"]).default("system"),
  stage: z.number().default(STAGE.DEFAULT),
});

export type OpenAIChatRendererPluginOptions = z.input<typeof openAIChatRendererPluginOptionsSchema>;

export class OpenAIChatRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof openAIChatRendererPluginOptionsSchema>;
  // A message is a pure function of its item and this plugin's options, so its token count is cached
  // per item: an agent loop's rebuild counts only the new messages, not the whole history again.
  readonly #messageTokens = new WeakMap<Tokenizer, WeakMap<Item, number>>();

  constructor(options: OpenAIChatRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, openAIChatRendererPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.render.for("openai").tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const messages: OpenAIChatMessage[] = [];
      const messageTokens: number[] = [];
      const messageIndexById = new Map<string, number>();
      let cache = this.#messageTokens.get(context.tokenizer);
      if (cache === undefined) {
        cache = new WeakMap();
        this.#messageTokens.set(context.tokenizer, cache);
      }
      for (const item of items) {
        const message = renderOpenAIChatMessage(item, this.#options);
        if (message === undefined) {
          context.report.drop(item, `${item.type} items are not sent to OpenAI Chat Completions`);
          continue;
        }
        messageIndexById.set(item.id, messages.length);
        messages.push(message);
        let tokens = cache.get(item);
        if (tokens === undefined) {
          tokens = countOpenAIChatMessageTokens(message, context.tokenizer);
          cache.set(item, tokens);
        }
        messageTokens.push(tokens);
      }
      const request: OpenAIChatRequest = context.model === undefined ? { messages } : { model: context.model, messages };
      if (context.tools.length > 0) {
        request.tools = context.tools.map((tool) => ({
          type: "function",
          function: tool.description === undefined ? { name: tool.name, parameters: tool.parameters } : { name: tool.name, description: tool.description, parameters: tool.parameters },
        }));
      }
      return { request, tokenCount: countOpenAIChatTokens(request, context.tokenizer, messageTokens), messageCount: messages.length, messageIndexById };
    });
  }
}
