// Renderer for Google Gemini generateContent, registered under the renderer name "gemini": renders
// the items as a GeminiRequest and checks it against the Gemini rule table.
import { checkRules, type Item, type PipelinePlugin, type PluginHost, parsePluginOptions, STAGE, type Tokenizer } from "@ctxpipe/core";
import { z } from "zod";
import { countGeminiPartsTokens, countGeminiTokens } from "./count-gemini-tokens.js";
import type { GeminiPart, GeminiRequest } from "./gemini-request.js";
import { geminiRules } from "./gemini-rules.js";
import { renderGeminiContents } from "./render-gemini-contents.js";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    gemini: GeminiRequest;
  }
}

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
      if (rendered.systemInstruction !== undefined) request.config = { systemInstruction: rendered.systemInstruction };
      if (context.tools.length > 0) {
        const functionDeclarations = context.tools.map((tool) =>
          tool.description === undefined ? { name: tool.name, parametersJsonSchema: tool.parameters } : { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters },
        );
        request.config = { ...request.config, tools: [{ functionDeclarations }] };
      }

      let partTokens = 0;
      const cache = this.#cacheFor(context.tokenizer);
      for (const { item, parts } of rendered.itemParts) {
        const key = cacheKeyOf(parts);
        let cached = cache.get(item);
        if (cached === undefined || cached.key !== key) {
          cached = { key, tokens: countGeminiPartsTokens(parts, context.tokenizer) };
          cache.set(item, cached);
        }
        partTokens += cached.tokens;
      }
      return {
        request,
        tokenCount: countGeminiTokens(request, context.tokenizer, partTokens),
        // The system instruction counts as a message, as the system message does for other renderers.
        messageCount: rendered.contents.length + (rendered.systemInstruction === undefined ? 0 : 1),
        messageIndexById: rendered.messageIndexById,
        prefix: { tools: request.config?.tools, system: request.config?.systemInstruction, messages: request.contents },
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

  #cacheFor(tokenizer: Tokenizer): WeakMap<Item, CachedTokens> {
    let cache = this.#itemTokens.get(tokenizer);
    if (cache === undefined) {
      cache = new WeakMap();
      this.#itemTokens.set(tokenizer, cache);
    }
    return cache;
  }
}
