// Default renderer: OpenAI Chat Completions, registered under the renderer name "openai".
import { z } from "zod";
import type { PipelinePlugin, PluginHost } from "../../pipeline/pipeline-hooks.js";
import { STAGE } from "../../pipeline/stage.js";
import { parsePluginOptions } from "../../plugins/parse-plugin-options.js";
import { countOpenAIChatTokens } from "./count-openai-chat-tokens.js";
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

  constructor(options: OpenAIChatRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, openAIChatRendererPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.render.for("openai").tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const messages: OpenAIChatMessage[] = [];
      const messageIndexById = new Map<string, number>();
      for (const item of items) {
        const message = renderOpenAIChatMessage(item, this.#options);
        if (message === undefined) {
          context.report.drop(item, `${item.type} items are not sent to OpenAI Chat Completions`);
          continue;
        }
        messageIndexById.set(item.id, messages.length);
        messages.push(message);
      }
      const request: OpenAIChatRequest = context.model === undefined ? { messages } : { model: context.model, messages };
      if (context.tools.length > 0) {
        request.tools = context.tools.map((tool) => ({
          type: "function",
          function: tool.description === undefined ? { name: tool.name, parameters: tool.parameters } : { name: tool.name, description: tool.description, parameters: tool.parameters },
        }));
      }
      return { request, tokenCount: countOpenAIChatTokens(request, context.tokenizer), messageCount: messages.length, messageIndexById };
    });
  }
}
