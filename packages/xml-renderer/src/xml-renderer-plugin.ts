// XmlRendererPlugin: renders the items as XML-tagged chat messages (the chunk transcript) under the renderer
// name "xml", applies the chunk selection options, and checks each request it builds.
import { checkRules, type Item, type PipelinePlugin, type PluginHost, PluginOptionsError, parsePluginOptions, STAGE, type Tokenizer } from "@ctxpipe/core";
import { z } from "zod";
import type { ChunkRenderer } from "./chunk-renderer.js";
import { countXmlMessageTokens, countXmlTokens } from "./count-xml-tokens.js";
import { type FilledItemCache, fillSeedAttributes } from "./fill-seed-attributes.js";
import { type RenderedChunk, renderXmlMessages } from "./render-xml-messages.js";
import { selectChunks } from "./select-chunks.js";
import { type ResolvedXmlRenderOptions, resolveXmlRenderOptions, type XmlBuildOptions, type XmlRenderOptions, xmlBuildOptionsSchema, xmlRenderOptionsSchema } from "./xml-render-options.js";
import type { XmlRole } from "./xml-request.js";
import { xmlRequestRules } from "./xml-request-rules.js";
import "./renderer-output-map.js";

const PLUGIN_NAME = "XmlRendererPlugin";
const RENDERER = "xml";

function isChunkRenderer(value: unknown): value is ChunkRenderer {
  const candidate = value as Partial<ChunkRenderer> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.canRender === "function" && typeof candidate.getRole === "function" && typeof candidate.render === "function";
}

const chunkRendererSchema = z.custom<ChunkRenderer>(isChunkRenderer, "must be a chunk renderer { canRender(item), getRole(item), render(item) }");

const xmlRendererPluginOptionsSchema = xmlRenderOptionsSchema.extend({
  /** Custom chunk renderers, consulted in order ahead of the built-in ones. */
  renderers: z.array(chunkRendererSchema).default([]),
  stage: z.number().default(STAGE.DEFAULT),
});

export interface XmlRendererPluginOptions extends XmlRenderOptions {
  /** Custom chunk renderers, consulted in order ahead of the built-in ones. */
  readonly renderers?: ReadonlyArray<ChunkRenderer>;
  /** Position inside the render hook. Default STAGE.DEFAULT. */
  readonly stage?: number;
}

interface MessageTokens {
  readonly role: XmlRole;
  readonly content: string;
  readonly tokens: number;
}

export class XmlRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof xmlRendererPluginOptionsSchema>;
  readonly #defaults: XmlRenderOptions;
  #renderers: ChunkRenderer[];
  #rendered = false;
  // Items are immutable, so an item's rendering is computed once. A message's count is kept under
  // its first item and reused while its text is unchanged: a rebuild counts only the new messages.
  readonly #chunks = new WeakMap<Item, RenderedChunk>();
  readonly #filled: FilledItemCache = new WeakMap();
  readonly #messageTokens = new WeakMap<Tokenizer, WeakMap<Item, MessageTokens>>();

  constructor(options: XmlRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, xmlRendererPluginOptionsSchema, options);
    const { renderers, stage: _stage, ...defaults } = this.#options;
    this.#renderers = [...renderers];
    this.#defaults = defaults;
  }

  /**
   * Adds a custom chunk renderer ahead of every renderer registered so far, so a later, more specific
   * renderer wins over an earlier one.
   */
  registerRenderer(renderer: ChunkRenderer): this {
    if (!isChunkRenderer(renderer)) throw new PluginOptionsError(PLUGIN_NAME, "  registerRenderer: must be a chunk renderer { canRender(item), getRole(item), render(item) }");
    // Renderings are cached per item, so the renderer list is fixed once the plugin has rendered.
    if (this.#rendered) throw new PluginOptionsError(PLUGIN_NAME, "  registerRenderer: register chunk renderers before the first build (or pass them as options.renderers)");
    this.#renderers.unshift(renderer);
    return this;
  }

  /** The custom renderers, in the order they are consulted (the built-in ones follow). */
  get renderers(): ReadonlyArray<ChunkRenderer> {
    return this.#renderers;
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    // `systemPrompt`, given per build as `xml.systemPrompt`: added as a system prompt part,
    // ahead of InsertSystemPlugin (STAGE.LATE), so it is budgeted and reported like `system`.
    pipeline.hooks.insertSystem.tap({ name: PLUGIN_NAME, stage: STAGE.DEFAULT }, (_items, context) => {
      if (context.renderer !== RENDERER) return undefined;
      const systemPrompt = this.#parse(context.options.xml)?.systemPrompt;
      if (systemPrompt === undefined) return undefined;
      if (context.options.system !== undefined) {
        throw new PluginOptionsError(PLUGIN_NAME, '  xml.systemPrompt: give the system prompt once, as the build option "system" or as xml.systemPrompt (its alias), not both');
      }
      context.system.add({ id: "systemPrompt", text: systemPrompt });
      return undefined;
    });
    pipeline.hooks.render.for(RENDERER).tap(tap, (items, context) => {
      this.#rendered = true;
      const filled = fillSeedAttributes(items, context.inputItems, this.#filled);
      const selection = selectChunks(filled, this.#resolve(context.options.xml));
      for (const { item, reason } of selection.leftOut) context.report.drop(item, reason);
      for (const { item, reason } of selection.trimmed) context.report.repair(item, reason);
      const rendered = renderXmlMessages(selection.items, { renderers: this.#renderers, cache: this.#chunks });
      for (const { item, renderer } of rendered.empty) context.report.drop(item, `chunk renderer "${renderer}" rendered it as empty text`);

      const { messages } = rendered.request;
      const firstItems: Item[] = [];
      for (const item of selection.items) {
        const index = rendered.messageIndexById.get(item.id);
        if (index !== undefined && firstItems[index] === undefined) firstItems[index] = item;
      }
      const cache = this.#tokenCache(context.tokenizer);
      const messageTokens = messages.map((message, index) => {
        const first = firstItems[index]!;
        const known = cache.get(first);
        if (known !== undefined && known.role === message.role && known.content === message.content) return known.tokens;
        const tokens = countXmlMessageTokens(message, context.tokenizer);
        cache.set(first, { role: message.role, content: message.content, tokens });
        return tokens;
      });
      return {
        request: rendered.request,
        tokenCount: countXmlTokens(rendered.request, context.tokenizer, messageTokens),
        messageCount: messages.length,
        messageIndexById: rendered.messageIndexById,
        prefix: { messages: rendered.request.messages },
      };
    });
    pipeline.hooks.validateRequest.for(RENDERER).tap(tap, (request, context) => {
      for (const violation of checkRules(xmlRequestRules, request, { model: context.model })) context.issue(violation);
    });
  }

  #resolve(buildOptions: XmlBuildOptions | undefined): ResolvedXmlRenderOptions {
    const parsed = this.#parse(buildOptions);
    if (parsed === undefined) return resolveXmlRenderOptions(this.#defaults, undefined);
    const { systemPrompt: _systemPrompt, ...selection } = parsed;
    return resolveXmlRenderOptions(this.#defaults, selection);
  }

  // Parsed on every build: callers may reuse one options object and change it between builds, so
  // caching by identity would send a stale selection. Parsing a few fields costs little.
  #parse(buildOptions: XmlBuildOptions | undefined): z.output<typeof xmlBuildOptionsSchema> | undefined {
    if (buildOptions === undefined) return undefined;
    return parsePluginOptions(`${PLUGIN_NAME} (build option "xml")`, xmlBuildOptionsSchema, buildOptions);
  }

  #tokenCache(tokenizer: Tokenizer): WeakMap<Item, MessageTokens> {
    let cache = this.#messageTokens.get(tokenizer);
    if (cache === undefined) {
      cache = new WeakMap();
      this.#messageTokens.set(tokenizer, cache);
    }
    return cache;
  }
}
