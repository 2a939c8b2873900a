// Renderer for OpenAI's Responses API, registered under the renderer name "openai-responses": the
// leading system messages become `instructions`, every other item the input items it stands for
// (render-openai-responses-item.ts). It also checks every request it renders against the Responses rule table.
import {
  checkRules,
  fitPromptCacheKey,
  type Item,
  isBlank,
  itemText,
  openAIResponsesExtraOf,
  type PipelinePlugin,
  type PluginHost,
  parsePluginOptions,
  type RenderContext,
  STAGE,
  type Tokenizer,
  type ToolDefinition,
} from "@ctxpipe/core";
import { z } from "zod";
import {
  countOpenAIResponsesInputItemTokens,
  countOpenAIResponsesInstructionsTokens,
  countOpenAIResponsesToolTokens,
  OPENAI_RESPONSES_REPLY_PRIMING,
} from "./count-openai-responses-tokens.js";
import type { OpenAIResponsesFunctionTool, OpenAIResponsesInputItem, OpenAIResponsesRequest, OpenAIResponsesVerbatimItem } from "./openai-responses-request.js";
import { MIN_OUTPUT_TOKENS } from "./openai-responses-request-rules.js";
import { openAIResponsesRules } from "./openai-responses-rules.js";
import { type OpenAIResponsesSentItem, type OpenAIResponsesSystemRole, type RenderedOpenAIResponsesItem, renderOpenAIResponsesItem } from "./render-openai-responses-item.js";
import "./renderer-output-map.js";

const PLUGIN_NAME = "OpenAIResponsesRendererPlugin";
/** Shorter texts are cheaper to count again than to compare with the item's text. */
const REUSE_ITEM_COUNT_FROM = 256;
/**
 * The input item types the count knows the size of. The rest are estimates: a reasoning item sent back
 * stands for reasoning the model reads in full (encrypted, or stored by the API under its id) of which
 * only the summary is known here, and an item of another type (compaction, a built-in tool's call) is
 * counted as its JSON, which is not what the model reads.
 */
const COUNTED_TYPES: ReadonlySet<string> = new Set(["message", "function_call", "function_call_output"]);

const openAIResponsesRendererPluginOptionsSchema = z.strictObject({
  /** The request's max_output_tokens, 16 or more (the API's minimum). Default: the build's reserveOutputTokens; none is sent without either. */
  maxOutputTokens: z.number().int().min(MIN_OUTPUT_TOKENS).optional(),
  /**
   * Sent as `prompt_cache_key`, which routes requests sharing a prefix to the same cache (OpenAI
   * caches prefixes of 1,024 tokens or more by itself). A build's promptCacheKey option wins. A key
   * over 64 characters, which the API refuses, is sent shortened (fitPromptCacheKey).
   */
  promptCacheKey: z.string().min(1).optional(),
  /** The role of a system message stored after the conversation started (the leading ones are the instructions). Default "developer". */
  systemRole: z.enum(["developer", "system"]).default("developer"),
  /**
   * Sent as `store`. With false the API keeps nothing of the conversation, so the build leaves out what
   * it would have to find there (reasoning without its encrypted_content, and then its turn's ids;
   * item_reference items), each reported. Give it whenever the request goes with store: false.
   */
  store: z.boolean().optional(),
  stage: z.number().default(STAGE.DEFAULT),
});

/** Stored items of other types an item sent takes from items not sent, and the report's words for it. */
interface Carried {
  readonly items: ReadonlyArray<OpenAIResponsesVerbatimItem>;
  readonly reason?: string;
}

export type OpenAIResponsesRendererPluginOptions = z.input<typeof openAIResponsesRendererPluginOptionsSchema>;

// What the cache hands out is also what later builds send: frozen, so a caller cannot change it.
function deepFreeze<Value>(value: Value): Value {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

function responsesTools(tools: ReadonlyArray<ToolDefinition>): OpenAIResponsesFunctionTool[] {
  // strict false: the parameters describe the arguments to the model; a strict schema has rules of its own (every property required, no extra ones).
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: tool.parameters,
    strict: false,
  }));
}

export class OpenAIResponsesRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof openAIResponsesRendererPluginOptionsSchema>;
  // An item's input items are a pure function of the item and the system role, and so is their token
  // count per tokenizer: an agent loop's rebuild renders and counts only the new items.
  readonly #items: Record<OpenAIResponsesSystemRole, WeakMap<Item, RenderedOpenAIResponsesItem>> = { developer: new WeakMap(), system: new WeakMap() };
  /** Per item, the tokens of each input item it adds: before, own, after, in that order. */
  readonly #tokens = new WeakMap<Tokenizer, Record<OpenAIResponsesSystemRole, WeakMap<Item, ReadonlyArray<number>>>>();
  /** The last instructions counted, which an agent loop sends unchanged build after build. */
  #instructions: { tokenizer: Tokenizer; text: string; tokens: number } | undefined;

  constructor(options: OpenAIResponsesRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, openAIResponsesRendererPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    pipeline.hooks.render.for("openai-responses").tap(tap, (items, context) => {
      const { systemRole } = this.#options;
      const tokenCache = this.#tokenCache(context.tokenizer, systemRole);
      const input: OpenAIResponsesInputItem[] = [];
      const messageItemIds: string[] = [];
      const messagesBefore = [0];
      const messageIndexById = new Map<string, number>();
      const instructionTexts: string[] = [];
      let leading = true;
      let estimated = false;
      const add = (item: Item, list: ReadonlyArray<OpenAIResponsesSentItem>, tokens: ReadonlyArray<number>, from: number) => {
        list.forEach((inputItem, index) => {
          estimated ||= !COUNTED_TYPES.has(inputItem.type);
          // A stored item of another type goes in as it was: `input` is typed as the items ctxpipe writes.
          input.push(inputItem as OpenAIResponsesInputItem);
          messageItemIds.push(item.id);
          messagesBefore.push(messagesBefore.at(-1)! + tokens[from + index]!);
        });
      };
      const carry = this.#carried(items, context, systemRole);
      const inputIds = new Set(context.inputItems.map((item) => item.id));
      const addCarried = (item: Item, list: ReadonlyArray<OpenAIResponsesVerbatimItem>) => {
        add(
          item,
          list,
          list.map((entry) => countOpenAIResponsesInputItemTokens(entry, context.tokenizer)),
          0,
        );
      };
      items.forEach((item, position) => {
        const rendered = this.#rendered(item, systemRole);
        let tokens = tokenCache.get(item);
        if (tokens === undefined) {
          tokens = this.#count(item, rendered, context.tokenizer, (counted) => context.countTokens(counted));
          tokenCache.set(item, tokens);
        }
        const { before, own, after } = rendered;
        const carried = carry.before[position]!;
        if (carried.items.length > 0) {
          addCarried(item, carried.items);
          context.report.repair(item, carried.reason!);
        }
        add(item, before, tokens, 0);
        leading &&= item.type === "system";
        // Before a drop, which is then the item's last word: what was left out of the stored items around it is said either way.
        for (const reason of (leading ? rendered.instructionRepairs : undefined) ?? rendered.repairs) context.report.repair(item, reason);
        if (leading && item.type === "system" && !inputIds.has(item.id)) {
          // The composed system prompt: the stored system messages merged into it lose their image and file parts.
          for (const reason of this.#mergedSystemParts(item, context, systemRole)) context.report.repair(item, reason);
        }
        if (leading && item.type === "system") {
          // The conversation's first system messages are its instructions; a later one stays where it was, in systemRole.
          if (isBlank(item.text)) context.report.drop(item, "the system message is empty: nothing to send");
          else instructionTexts.push(item.text);
        } else if (own.length === 0) {
          context.report.drop(item, rendered.dropped ?? "nothing to send");
        } else {
          messageIndexById.set(item.id, input.length);
          add(item, own, tokens, before.length);
        }
        add(item, after, tokens, before.length + own.length);
      });
      const last = items.at(-1);
      if (last !== undefined && carry.after.items.length > 0) {
        addCarried(last, carry.after.items);
        context.report.repair(last, carry.after.reason!);
      }

      const maxOutputTokens = this.#maxOutputTokens(context);
      const cacheKey = context.options.promptCacheKey ?? this.#options.promptCacheKey;
      const promptCacheKey = cacheKey === undefined ? undefined : fitPromptCacheKey(cacheKey);
      const instructions = instructionTexts.length === 0 ? undefined : instructionTexts.join("\n\n");
      const request: OpenAIResponsesRequest = {
        ...(context.model === undefined ? {} : { model: context.model }),
        ...(instructions === undefined ? {} : { instructions }),
        input,
        ...(context.tools.length === 0 ? {} : { tools: responsesTools(context.tools) }),
        ...(maxOutputTokens === undefined ? {} : { max_output_tokens: maxOutputTokens }),
        ...(promptCacheKey === undefined ? {} : { prompt_cache_key: promptCacheKey }),
        ...(this.#options.store === undefined ? {} : { store: this.#options.store }),
      };
      const system = instructions === undefined ? 0 : this.#instructionsTokens(instructions, context.tokenizer);
      const tools = request.tools === undefined ? 0 : countOpenAIResponsesToolTokens(request.tools, context.tokenizer);
      return {
        request,
        tokenCount: OPENAI_RESPONSES_REPLY_PRIMING + system + messagesBefore.at(-1)! + tools,
        ...(estimated ? { tokenCountExact: false } : {}),
        messageCount: input.length + (instructions === undefined ? 0 : 1),
        messageIndexById,
        messageItemIds,
        // OpenAI's cache reads tools, then the instructions, then the input items.
        prefix: { tools: request.tools, system: instructions, messages: input, tokens: { tools, system, messagesBefore } },
      };
    });

    pipeline.hooks.validateRequest.for("openai-responses").tap(tap, (request, context) => {
      for (const violation of checkRules(openAIResponsesRules, request, { model: context.model })) context.issue(violation);
    });
  }

  /**
   * The answer's room: the plugin's maxOutputTokens, else the build's reserve (without a budget, a
   * reserve given alone for a model whose window no plugin knows still says it). A reserve of 1 to 15
   * is sent as 16, the least the API takes: the answer stays short, a few tokens over the reserve,
   * where leaving the field out would let it run to the end of the window.
   */
  #maxOutputTokens(context: RenderContext): number | undefined {
    if (this.#options.maxOutputTokens !== undefined) return this.#options.maxOutputTokens;
    const reserve = context.budget?.reserveOutputTokens ?? context.options.reserveOutputTokens ?? 0;
    if (reserve <= 0) return undefined;
    if (reserve >= MIN_OUTPUT_TOKENS) return reserve;
    context.warn(
      `reserveOutputTokens is ${reserve}, and the Responses API takes a max_output_tokens of ${MIN_OUTPUT_TOKENS} or more: ${MIN_OUTPUT_TOKENS} is sent, so the answer may use ${MIN_OUTPUT_TOKENS - reserve} tokens more than the reserve left for it`,
    );
    return MIN_OUTPUT_TOKENS;
  }

  /**
   * Stored items of other types that stood before an item the build does not send (dropped to fit the
   * budget, merged, summarized): a `compaction` item stands for the whole conversation before it, an
   * item_reference for an item the API keeps, so they are not lost with their host. Each goes with the
   * next item sent (a summary that took the host's place included), those of the log's end after the
   * last item; `reason` is the report's entry for the item that takes them.
   */
  #carried(items: ReadonlyArray<Item>, context: RenderContext, systemRole: OpenAIResponsesSystemRole): { before: Carried[]; after: Carried } {
    const none: Carried = { items: [] };
    const inputItems = context.inputItems;
    if (!inputItems.some((item) => openAIResponsesExtraOf(item)?.before !== undefined || openAIResponsesExtraOf(item)?.after !== undefined)) {
      return { before: items.map(() => none), after: none };
    }
    const positionById = new Map(inputItems.map((item, position) => [item.id, position]));
    const sentIds = new Set(items.map((item) => item.id));
    // For each item sent, the input position of the first item sent from it on that came in with the build.
    const nextPosition: Array<number | undefined> = [];
    for (let index = items.length - 1; index >= 0; index--) nextPosition[index] = positionById.get(items[index]!.id) ?? nextPosition[index + 1];
    let cursor = 0;
    const sweep = (end: number, field: "before" | "after" | "both"): Carried => {
      const found: OpenAIResponsesVerbatimItem[] = [];
      const hosts: string[] = [];
      for (; cursor < end; cursor++) {
        const host = inputItems[cursor]!;
        const extra = openAIResponsesExtraOf(host);
        if (sentIds.has(host.id) || (extra?.before === undefined && extra?.after === undefined)) continue;
        const rendered = this.#rendered(host, systemRole);
        const list = field === "before" ? rendered.before : [...rendered.before, ...rendered.after];
        if (list.length === 0) continue;
        found.push(...list);
        hosts.push(JSON.stringify(host.id));
      }
      if (found.length === 0) return none;
      const names = found.map((entry) => (typeof entry.id === "string" ? `${entry.type} ${JSON.stringify(entry.id)}` : entry.type)).join(", ");
      const where = field === "before" ? "go with the next item sent" : "go after the last item sent";
      return {
        items: found,
        reason: `also sends the stored items (${names}) that stood with item${hosts.length > 1 ? "s" : ""} ${hosts.join(", ")}, which ${hosts.length > 1 ? "are" : "is"} not sent: they stand for what the API keeps of the conversation, and ${where}`,
      };
    };
    const before = items.map((item, index) => {
      const own = positionById.get(item.id);
      if (own !== undefined && own < cursor) return none;
      const carried = sweep(own ?? nextPosition[index] ?? inputItems.length, "before");
      if (own !== undefined) cursor = own + 1;
      return carried;
    });
    return { before, after: sweep(inputItems.length, "both") };
  }

  /** What the stored system messages whose text the composed prompt took leave out: their parts other than text. */
  #mergedSystemParts(prompt: Item, context: RenderContext, systemRole: OpenAIResponsesSystemRole): string[] {
    return context.inputItems.flatMap((stored) => {
      if (stored.type !== "system" || openAIResponsesExtraOf(stored)?.content === undefined || isBlank(stored.text) || !itemText(prompt).includes(stored.text)) return [];
      const reasons = this.#rendered(stored, systemRole).instructionRepairs ?? [];
      return reasons.filter((reason) => reason.startsWith("its stored ")).map((reason) => `the system message ${JSON.stringify(stored.id)}: ${reason}`);
    });
  }

  #rendered(item: Item, systemRole: OpenAIResponsesSystemRole): RenderedOpenAIResponsesItem {
    const cache = this.#items[systemRole];
    let rendered = cache.get(item);
    if (rendered === undefined) {
      const { store } = this.#options;
      rendered = deepFreeze(renderOpenAIResponsesItem(item, { systemRole, ...(store === undefined ? {} : { store }) }));
      cache.set(item, rendered);
    }
    return rendered;
  }

  /** Tokens of each input item the item adds; a long text sent as the item holds it reuses the item's own count. */
  #count(item: Item, rendered: RenderedOpenAIResponsesItem, tokenizer: Tokenizer, countItem: (item: Item) => number): number[] {
    const text = itemText(item);
    const reusable = text.length >= REUSE_ITEM_COUNT_FROM && rendered.own.length === 1;
    return [...rendered.before, ...rendered.own, ...rendered.after].map((inputItem) => {
      const content = inputItem.type === "message" ? inputItem.content : inputItem.type === "function_call_output" ? inputItem.output : undefined;
      const known = reusable && inputItem === rendered.own[0] && content === text ? countItem(item) : undefined;
      return countOpenAIResponsesInputItemTokens(inputItem, tokenizer, known);
    });
  }

  #instructionsTokens(text: string, tokenizer: Tokenizer): number {
    const last = this.#instructions;
    if (last !== undefined && last.tokenizer === tokenizer && last.text === text) return last.tokens;
    const tokens = countOpenAIResponsesInstructionsTokens(text, tokenizer);
    this.#instructions = { tokenizer, text, tokens };
    return tokens;
  }

  #tokenCache(tokenizer: Tokenizer, systemRole: OpenAIResponsesSystemRole): WeakMap<Item, ReadonlyArray<number>> {
    let byRole = this.#tokens.get(tokenizer);
    if (byRole === undefined) {
      byRole = { developer: new WeakMap(), system: new WeakMap() };
      this.#tokens.set(tokenizer, byRole);
    }
    return byRole[systemRole];
  }
}
