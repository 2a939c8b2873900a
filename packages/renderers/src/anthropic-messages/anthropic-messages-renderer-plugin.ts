// Renderer for the Anthropic Messages API, registered under the renderer name "anthropic". It also
// checks every request it renders against the Anthropic rule table (validateRequest).
import { checkRules, type Item, type PipelinePlugin, type PluginHost, parsePluginOptions, STAGE, type Tokenizer, type ToolDefinition } from "@ctxpipe/core";
import { z } from "zod";
import type { AnthropicContentBlock, AnthropicMessagesRequest, AnthropicTool } from "./anthropic-messages-request.js";
import { anthropicMessagesRules } from "./anthropic-messages-rules.js";
import { anthropicMinimumCacheableTokens } from "./anthropic-minimum-cacheable-tokens.js";
import {
  anthropicMessagesBefore,
  countAnthropicBlockTokens,
  countAnthropicMessagesTokens,
  countAnthropicToolTokens,
} from "./count-anthropic-messages-tokens.js";
import { placeAnthropicCacheBreakpoints } from "./place-anthropic-cache-breakpoints.js";
import { type RenderedAnthropicMessages, renderAnthropicMessages } from "./render-anthropic-messages.js";
import "./renderer-output-map.js";

const PLUGIN_NAME = "AnthropicMessagesRendererPlugin";
/** max_tokens when neither the options nor the build's reserveOutputTokens say how long the answer may be. */
const DEFAULT_MAX_TOKENS = 4096;

const anthropicMessagesRendererPluginOptionsSchema = z.strictObject({
  /** The request's max_tokens. Default: the build's reserveOutputTokens when set, else 4096. */
  maxTokens: z.number().int().positive().optional(),
  /**
   * A system message stored after the conversation started: "system" (default) moves it into the
   * top-level system prompt; "user" sends it where it was, as user-side text labelled
   * "[System message]", which keeps the prompt cache when an agent loop adds one every turn.
   */
  laterSystemMessages: z.enum(["system", "user"]).default("system"),
  /**
   * Prompt cache breakpoints (cache_control): on by default, after the tools, after the system
   * prompt and at the end of the last two messages, each only where the request up to it is long
   * enough for the model to cache. false sends none; ttl "1h" keeps entries an hour (default 5 minutes).
   */
  cache: z.union([z.literal(false), z.strictObject({ ttl: z.enum(["5m", "1h"]).optional() })]).default({}),
  stage: z.number().default(STAGE.DEFAULT),
});

export type AnthropicMessagesRendererPluginOptions = z.input<typeof anthropicMessagesRendererPluginOptionsSchema>;

/** Token counts of what one item adds to a request; each is a pure function of the item. */
interface ItemTokens {
  system?: number;
  blocks?: number;
  thinking?: number;
}

function anthropicTools(tools: ReadonlyArray<ToolDefinition>): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: { ...tool.parameters, type: "object" },
  }));
}

export class AnthropicMessagesRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof anthropicMessagesRendererPluginOptionsSchema>;
  // What an item adds is a pure function of the item, so its token count is cached per item: an agent
  // loop's rebuild counts only the new items, not the whole history again.
  readonly #itemTokens = new WeakMap<Tokenizer, WeakMap<Item, ItemTokens>>();

  constructor(options: AnthropicMessagesRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, anthropicMessagesRendererPluginOptionsSchema, options);
  }

  /** Tokens of the system prompt and of each message's content, from the per-item cache. */
  #countParts(rendered: RenderedAnthropicMessages, tokenizer: Tokenizer): { system: number; messageContent: number[] } {
    let cache = this.#itemTokens.get(tokenizer);
    if (cache === undefined) {
      cache = new WeakMap();
      this.#itemTokens.set(tokenizer, cache);
    }
    let system = 0;
    const messageContent = rendered.messages.map(() => 0);
    const sum = (blocks: ReadonlyArray<AnthropicContentBlock>) => blocks.reduce((total, block) => total + countAnthropicBlockTokens(block, tokenizer), 0);
    for (const part of rendered.parts) {
      const tokens = cache.get(part.item) ?? {};
      cache.set(part.item, tokens);
      if ("system" in part) {
        tokens.system ??= tokenizer.count(part.system);
        system += tokens.system;
        continue;
      }
      tokens.blocks ??= sum(part.content.blocks);
      messageContent[part.messageIndex]! += tokens.blocks;
      if (part.thinkingSent && part.content.role === "assistant") {
        tokens.thinking ??= sum(part.content.thinking);
        messageContent[part.messageIndex]! += tokens.thinking;
      }
    }
    return { system, messageContent };
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    pipeline.hooks.render.for("anthropic").tap(tap, (items, context) => {
      const rendered = renderAnthropicMessages(items, { laterSystemMessages: this.#options.laterSystemMessages });
      for (const { item, reason } of rendered.dropped) context.report.drop(item, reason);
      for (const { item, reason } of rendered.repaired) context.report.repair(item, reason);
      for (const warning of rendered.warnings) context.warn(warning);

      // Without a budget (a reserve given alone for a model whose window no plugin knows) the reserve is still the answer's room.
      const reserve = context.budget?.reserveOutputTokens ?? context.options.reserveOutputTokens ?? 0;
      const request: AnthropicMessagesRequest = {
        ...(context.model === undefined ? {} : { model: context.model }),
        max_tokens: this.#options.maxTokens ?? (reserve > 0 ? reserve : DEFAULT_MAX_TOKENS),
        ...(rendered.system === undefined ? {} : { system: rendered.system }),
        messages: rendered.messages,
      };
      if (context.tools.length > 0) request.tools = anthropicTools(context.tools);
      const parts = this.#countParts(rendered, context.tokenizer);
      const tools = request.tools === undefined ? 0 : countAnthropicToolTokens(request.tools, context.tokenizer);
      const tokenCount = countAnthropicMessagesTokens(request, context.tokenizer, { ...parts, tools });
      const cache = this.#options.cache;
      const placed =
        cache === false
          ? undefined
          : placeAnthropicCacheBreakpoints(request, { tools, system: parts.system, messageContent: parts.messageContent }, anthropicMinimumCacheableTokens(context.model), cache.ttl);
      return {
        request: placed?.request ?? request,
        tokenCount,
        messageCount: rendered.messages.length + (rendered.system === undefined ? 0 : 1),
        messageIndexById: rendered.messageIndexById,
        // Anthropic's cache reads tools, then system, then messages. The parts are given without
        // their breakpoints: the cache matches content, and a breakpoint that moved on is not a change.
        prefix: {
          tools: request.tools,
          system: request.system,
          messages: request.messages,
          tokens: { tools, system: parts.system, messagesBefore: anthropicMessagesBefore(parts.messageContent) },
          ...(placed === undefined ? {} : { breakpoints: placed.breakpoints }),
        },
      };
    });

    pipeline.hooks.validateRequest.for("anthropic").tap(tap, (request, context) => {
      for (const violation of checkRules(anthropicMessagesRules, request, { model: context.model })) context.issue(violation);
    });
  }
}
