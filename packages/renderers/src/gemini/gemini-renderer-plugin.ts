// Renderer for Google Gemini generateContent, registered under the renderer name "gemini": renders
// the items as a GeminiRequest and checks it against the Gemini rule table.
import { checkRules, type Item, PluginOptionsError, type PipelinePlugin, type PluginHost, parsePluginOptions, type RendererName, STAGE, type Tokenizer } from "@ctxpipe/core";
import { z } from "zod";
import { countGeminiPartsTokens, countGeminiTokens, GEMINI_TOKENS_PER_CONTENT } from "./count-gemini-tokens.js";
import type { GeminiPart, GeminiRequest } from "./gemini-request.js";
import { geminiRules } from "./gemini-rules.js";
import { renderGeminiContents } from "./render-gemini-contents.js";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    gemini: GeminiRequest;
  }
  interface BuildOptions<R extends RendererName = RendererName> {
    /**
     * For the "gemini" renderer: the name of a cached content ("cachedContents/…") made with the
     * system prompt and tools, sent as config.cachedContent. Overrides the renderer's option.
     */
    cachedContent?: string;
  }
}

/** A cached content's resource name: "cachedContents/ID", or a Vertex AI path ending with it. */
const cachedContentSchema = z.string().regex(/(^|\/)cachedContents\/[^/\s]+$/u, 'must be a cached content\'s name, "cachedContents/<id>"');
const DROPPED_FOR_CACHE =
  "not sent: the request uses a cached content (cachedContent), which must hold the system instruction itself; Gemini refuses a request that sets both";

const PLUGIN_NAME = "GeminiRendererPlugin";

const geminiRendererPluginOptionsSchema = z.strictObject({
  /**
   * Gemini 3 rejects replayed function calls without a thoughtSignature. "auto" gives calls stored
   * without one the documented skip sentinel on gemini-3* models, "always" on every model, "never" on none.
   */
  thoughtSignatures: z.enum(["auto", "always", "never"]).default("auto"),
  /**
   * A system message stored after the conversation started: "system" (default) moves it into the
   * system instruction; "user" sends it where it was, as user-side text labelled "[System message]",
   * which keeps the prompt cache when an agent loop adds one every turn.
   */
  laterSystemMessages: z.enum(["system", "user"]).default("system"),
  /**
   * Explicit context caching: the name of a cached content made beforehand with the system prompt
   * and tools ("cachedContents/…"). The request then names it and leaves its own system instruction
   * and tools out, as Gemini requires. Without it nothing is added: Gemini caches shared prefixes by itself.
   */
  cachedContent: cachedContentSchema.optional(),
  stage: z.number().default(STAGE.DEFAULT),
});

export type GeminiRendererPluginOptions = z.input<typeof geminiRendererPluginOptionsSchema>;

/** A cached count, with the key of the parts it was counted for. */
interface CachedTokens {
  readonly key: string;
  readonly tokens: number;
}

// What can differ between two renderings of one item: the name a result takes from its call, and the
// label of a system item (none in the system instruction, one inside the conversation).
function cacheKeyOf(parts: ReadonlyArray<GeminiPart>): string {
  return parts.map((part) => ("functionResponse" in part ? part.functionResponse.name : "text" in part ? part.text.length : "")).join("\n");
}

export class GeminiRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof geminiRendererPluginOptionsSchema>;
  // An item's parts depend on little besides the item (see cacheKeyOf), so their token count is cached
  // per item: an agent loop's rebuild counts only the new items.
  readonly #itemTokens = new WeakMap<Tokenizer, WeakMap<Item, CachedTokens>>();

  constructor(options: GeminiRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, geminiRendererPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    pipeline.hooks.render.for("gemini").tap(tap, (items, context) => {
      const { thoughtSignatures, laterSystemMessages } = this.#options;
      const rendered = renderGeminiContents(items, { thoughtSignatures, laterSystemMessages, model: context.model });
      for (const { item, reason } of rendered.dropped) context.report.drop(item, reason);
      for (const { item, reason } of rendered.repaired) context.report.repair(item, reason);

      const request: GeminiRequest = context.model === undefined ? { contents: rendered.contents } : { model: context.model, contents: rendered.contents };
      const cachedContent = this.#cachedContent(context.options.cachedContent);
      if (cachedContent !== undefined) {
        // The cached content holds the system instruction and tools: the request names it and sends neither.
        request.config = { cachedContent };
        const sentInContents = new Set(rendered.messageIndexById.keys());
        for (const { item } of rendered.itemParts) if (!sentInContents.has(item.id)) context.report.drop(item, DROPPED_FOR_CACHE);
        const left = [rendered.systemInstruction === undefined ? "" : "the system instruction", context.tools.length === 0 ? "" : `the ${context.tools.length} tool definitions`].filter((part) => part !== "");
        if (left.length > 0) context.warn(`${left.join(" and ")} not sent: the request uses the cached content ${cachedContent}, which must hold ${left.length > 1 || context.tools.length > 0 ? "them" : "it"}`);
      }
      if (rendered.systemInstruction !== undefined && cachedContent === undefined) request.config = { systemInstruction: rendered.systemInstruction };
      if (context.tools.length > 0 && cachedContent === undefined) {
        const functionDeclarations = context.tools.map((tool) =>
          tool.description === undefined ? { name: tool.name, parametersJsonSchema: tool.parameters } : { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters },
        );
        request.config = { ...request.config, tools: [{ functionDeclarations }] };
      }

      let partTokens = 0;
      let systemTokens = 0;
      // Parts' tokens per content, for report.cache; the turn markers are added below.
      const contentTokens = rendered.contents.map(() => GEMINI_TOKENS_PER_CONTENT);
      const cache = this.#cacheFor(context.tokenizer);
      for (const { item, parts } of rendered.itemParts) {
        const contentIndex = rendered.messageIndexById.get(item.id);
        // With a cached content the system instruction is not sent, so it is not counted.
        if (cachedContent !== undefined && contentIndex === undefined) continue;
        const key = cacheKeyOf(parts);
        let cached = cache.get(item);
        if (cached === undefined || cached.key !== key) {
          cached = { key, tokens: countGeminiPartsTokens(parts, context.tokenizer) };
          cache.set(item, cached);
        }
        partTokens += cached.tokens;
        if (contentIndex === undefined) systemTokens += cached.tokens;
        else contentTokens[contentIndex]! += cached.tokens;
      }
      const tokenCount = countGeminiTokens(request, context.tokenizer, partTokens);
      const messagesBefore = [0];
      for (const tokens of contentTokens) messagesBefore.push(messagesBefore.at(-1)! + tokens);
      const system = request.config?.systemInstruction === undefined ? 0 : GEMINI_TOKENS_PER_CONTENT + systemTokens;
      return {
        request,
        tokenCount,
        // The system instruction counts as a message, as the system message does for other renderers.
        messageCount: rendered.contents.length + (request.config?.systemInstruction === undefined ? 0 : 1),
        messageIndexById: rendered.messageIndexById,
        // Gemini reads tools, then the system instruction (or the cached content that holds both), then contents.
        prefix: {
          tools: request.config?.tools,
          system: cachedContent ?? request.config?.systemInstruction,
          messages: request.contents,
          tokens: { tools: tokenCount - system - messagesBefore.at(-1)!, system, messagesBefore },
        },
      };
    });

    pipeline.hooks.validateRequest.for("gemini").tap(tap, (request, context) => {
      for (const violation of checkRules(geminiRules, request, { model: context.model })) {
        const { rule, level, message, path, messageIndex, providerError } = violation;
        context.issue({
          rule,
          level,
          message,
          ...(path === undefined ? {} : { path }),
          ...(messageIndex === undefined ? {} : { messageIndex }),
          ...(providerError === undefined ? {} : { providerError }),
        });
      }
    });
  }

  /** The build's cachedContent, checked, else the renderer's. */
  #cachedContent(fromBuild: unknown): string | undefined {
    if (fromBuild === undefined) return this.#options.cachedContent;
    const checked = cachedContentSchema.safeParse(fromBuild);
    if (!checked.success) throw new PluginOptionsError(PLUGIN_NAME, `cachedContent (build option): ${checked.error.issues[0]?.message ?? "invalid"}, got ${JSON.stringify(fromBuild)}`);
    return checked.data;
  }

  #cacheFor(tokenizer: Tokenizer): WeakMap<Item, CachedTokens> {
    let cache = this.#itemTokens.get(tokenizer);
    if (cache === undefined) {
      cache = new WeakMap();
      this.#itemTokens.set(tokenizer, cache);
    }
    return cache;
  }
}
