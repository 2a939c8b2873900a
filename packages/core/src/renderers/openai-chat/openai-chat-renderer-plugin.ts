// Default renderer: OpenAI Chat Completions, registered under the renderer name "openai". It also
// checks every request it builds against OpenAI's rule table.
import { z } from "zod";
import type { PipelinePlugin, PluginHost } from "../../pipeline/pipeline-hooks.js";
import { STAGE } from "../../pipeline/stage.js";
import { parsePluginOptions } from "../../plugins/parse-plugin-options.js";
import type { Item } from "../../model/item.js";
import { itemText } from "../../model/item-text.js";
import type { Tokenizer } from "../../spec/tokenizer.js";
import { countOpenAIChatMessageTokens, countOpenAIChatToolTokens, REPLY_PRIMING } from "./count-openai-chat-tokens.js";
import type { OpenAIChatMessage, OpenAIChatRequest } from "./openai-chat-request.js";
import { openAIChatRules } from "./openai-chat-rules.js";
import { OpenAIRequestChecker } from "./openai-request-checker.js";
import { rejectsSystemRole } from "./rejects-system-role.js";
import { RenderedMessages } from "./rendered-messages.js";
import { renderOpenAIChatMessage } from "./render-openai-chat-message.js";
import { deepFreeze } from "../../model/deep-freeze.js";
import { fitPromptCacheKey } from "../../text/prompt-cache-key.js";

const PLUGIN_NAME = "OpenAIChatRendererPlugin";
/** Shorter texts are cheaper to count again than to compare with the item's text. */
const REUSE_ITEM_COUNT_FROM = 256;

const openAIChatRendererPluginOptionsSchema = z.strictObject({
  /** The role of system messages. Default: "developer" for models that reject "system" (o1-mini), else "system". */
  systemRole: z.enum(["system", "developer"]).optional(),
  /**
   * Sent as `prompt_cache_key`, which routes requests sharing a prefix to the same cache (OpenAI
   * caches prefixes of 1,024 tokens or more by itself). A build's promptCacheKey option wins. A key
   * over 64 characters, which OpenAI refuses, is sent shortened (fitPromptCacheKey).
   */
  promptCacheKey: z.string().min(1).optional(),
  stage: z.number().default(STAGE.DEFAULT),
});

export type OpenAIChatRendererPluginOptions = z.input<typeof openAIChatRendererPluginOptionsSchema>;

type SystemRole = "system" | "developer";

export class OpenAIChatRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof openAIChatRendererPluginOptionsSchema>;
  // A message is a pure function of its item and the system role, so its token count is cached per
  // item: an agent loop's rebuild counts only the new messages, not the whole history again.
  readonly #messageTokens = new WeakMap<Tokenizer, Map<SystemRole, WeakMap<Item, number>>>();
  // The same holds for the message itself. Cached messages are frozen, so checks can remember the
  // ones they found clean and a caller cannot change a message that later builds will send again.
  readonly #messages: Record<SystemRole, WeakMap<Item, OpenAIChatMessage | null>> = { system: new WeakMap(), developer: new WeakMap() };

  constructor(options: OpenAIChatRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, openAIChatRendererPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    // The last list's messages, reused while the next list starts with the same items.
    const rendered = new RenderedMessages();
    pipeline.hooks.render.for("openai").tap(tap, (items, context) => {
      const systemRole = this.#options.systemRole ?? (rejectsSystemRole(context.model) ? "developer" : "system");
      const cache = this.#tokenCache(context.tokenizer, systemRole);
      const list = rendered.render(items, {
        key: [context.tokenizer, systemRole],
        message: (item) => {
          const message = this.#message(item, systemRole);
          if (message === undefined) return { reason: item.type === "thinking" ? "thinking items are not sent to OpenAI Chat Completions" : `the ${item.type} message is empty: nothing to send` };
          let tokens = cache.get(item);
          if (tokens === undefined) {
            // A message that carries its item's text unchanged (most user messages and tool results)
            // reuses the item's count, which compress plugins already paid for on a cold build.
            const content = message.content;
            const known = typeof content === "string" && content.length >= REUSE_ITEM_COUNT_FROM && content === itemText(item) ? context.countTokens(item) : undefined;
            tokens = countOpenAIChatMessageTokens(message, context.tokenizer, known);
            cache.set(item, tokens);
          }
          return { message, tokens };
        },
      });
      for (const { item, reason } of list.dropped) context.report.drop(item, reason);
      const messages = list.messages;
      const request: OpenAIChatRequest = context.model === undefined ? { messages } : { model: context.model, messages };
      if (context.tools.length > 0) {
        request.tools = context.tools.map((tool) => ({
          type: "function",
          function: tool.description === undefined ? { name: tool.name, parameters: tool.parameters } : { name: tool.name, description: tool.description, parameters: tool.parameters },
        }));
      }
      const promptCacheKey = context.options.promptCacheKey ?? this.#options.promptCacheKey;
      if (promptCacheKey !== undefined) request.prompt_cache_key = fitPromptCacheKey(promptCacheKey);
      const toolTokens = request.tools === undefined ? 0 : countOpenAIChatToolTokens(request.tools, context.tokenizer);
      return {
        request,
        tokenCount: REPLY_PRIMING + list.tokens + toolTokens,
        messageCount: messages.length,
        messageIndexById: list.messageIndexById,
        // The system prompt is messages[0] here; OpenAI caches tools, then messages.
        prefix: { tools: request.tools, messages, tokens: { tools: toolTokens, system: 0, messagesBefore: list.tokensBeforeMessage } },
      };
    });
    // Resumes from the last request checked, when the new one shares its first messages.
    const checker = new OpenAIRequestChecker();
    pipeline.hooks.validateRequest.for("openai").tap(tap, (request, context) => {
      for (const violation of checker.check(openAIChatRules, request, { model: context.model })) context.issue(violation);
    });
  }

  #message(item: Item, systemRole: SystemRole): OpenAIChatMessage | undefined {
    const cache = this.#messages[systemRole];
    let message = cache.get(item);
    if (message === undefined) {
      message = deepFreeze(renderOpenAIChatMessage(item, { systemRole })) ?? null;
      cache.set(item, message);
    }
    return message ?? undefined;
  }

  #tokenCache(tokenizer: Tokenizer, systemRole: SystemRole): WeakMap<Item, number> {
    let byRole = this.#messageTokens.get(tokenizer);
    if (byRole === undefined) {
      byRole = new Map();
      this.#messageTokens.set(tokenizer, byRole);
    }
    let cache = byRole.get(systemRole);
    if (cache === undefined) {
      cache = new WeakMap();
      byRole.set(systemRole, cache);
    }
    return cache;
  }
}
