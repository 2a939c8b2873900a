// The standalone CompressionPipeline, for code that keeps its own message list (a tool loop that appends
// to an array) rather than building a request every turn: getUsage, shouldCompress, compressIfNeeded,
// and compressHistoricalMessages, which leaves the current loop alone and says where it now starts.
// It takes items, stored messages or OpenAI Chat messages, and hands messages back in the shape given.
// Underneath is a ctxpipe pipeline holding nothing but CompressionPlugin, so the strategies, the
// report and the summary records are exactly those of a full build.
import {
  type BuildOptions,
  type BuildResult,
  createPipeline,
  estimateFixedTokens,
  estimateItemTokens,
  estimatingTokenizer,
  type Item,
  type ItemInput,
  itemText,
  type Pipeline,
  parseInput,
  PluginOptionsError,
  type RendererName,
  type SystemPart,
  type Tokenizer,
  type ToolDefinition,
  type ToolDefinitionInput,
  toolDefinitionSchema,
} from "@ctxpipe/core";
import { z } from "zod";
import { CompressionPlugin } from "./compression-plugin.js";
import { firstItemIdOf, readMessages, writeMessages } from "./compression-messages.js";
import type { CompressionReport } from "./compression-report.js";
import { DEFAULT_STRATEGIES } from "./default-strategies.js";
import type { StrategyInput } from "./strategy-input.js";
import type { Summarizer } from "./summaries/summarizer.js";
import type { SummaryRecord } from "./summaries/summary-record.js";

const ITEMS_RENDERER = "ctxpipe-compression-items";

export interface CompressionPipelineOptions {
  /**
   * The chain, in order, as for CompressionPlugin. Default DEFAULT_STRATEGIES: cut results over their
   * cap, clear old tool results, then slide the window (the chain the loops and the CLI run by default).
   */
  readonly strategies?: ReadonlyArray<StrategyInput>;
  readonly summarizer?: Summarizer;
  /** Tokens the request may use. Default 128,000, as in the compression settings. */
  readonly tokenBudget?: number;
  /** Default 0.8. */
  readonly triggerThreshold?: number;
  /** Default 0.5. */
  readonly targetUsage?: number;
  /** Default 10. */
  readonly minRecentMessages?: number;
  /** Counts tokens. Default core's estimatingTokenizer (characters / 4); pass an exact one from @ctxpipe/tokenizers. */
  readonly tokenizer?: Tokenizer;
  /** The system prompt the request will carry: counted in the usage, never compressed. */
  readonly system?: string;
  /** The tool definitions the request will carry: counted in the usage. */
  readonly tools?: ReadonlyArray<ToolDefinitionInput>;
}

export interface CompressionUsage {
  /** Estimated tokens of the request: system prompt, tools, messages and their formatting. */
  readonly tokens: number;
  readonly tokenBudget: number;
  /** tokens / tokenBudget, as a fraction (0.8 is 80%). */
  readonly usagePercent: number;
  /** Whether the tokenizer is exact (the formatting overhead is an estimate either way). */
  readonly exact: boolean;
}

/**
 * What the methods take: canonical items (they have a `type`), stored messages (a `role` and an `id`,
 * as importStoredMessages reads them) or OpenAI Chat messages (a `role` and no `id`), one shape per call.
 */
export type CompressionInput = object;

/** The messages handed back: items for items given, otherwise the caller's own message type. */
export type CompressedMessage<TMessage> = TMessage extends { readonly type: string } ? Item : TMessage;

export interface CompressionOutcome<TMessage = Item> {
  /**
   * The messages after compression, in the shape given: items in, items out; stored messages in,
   * stored messages out; OpenAI messages in, OpenAI messages out. A message no strategy changed is the
   * caller's own object; a cleared tool result is the caller's record with the placeholder as content;
   * a summary is a stored summary message (`kind: "summary"`, `coveredIds`) or an OpenAI system message.
   */
  readonly messages: Array<CompressedMessage<TMessage>>;
  /** The same messages as canonical items, in conversation order. */
  readonly items: Item[];
  /** Whether anything changed (a strategy acted or a persisted summary was applied). */
  readonly compressed: boolean;
  readonly usage: CompressionUsage;
  /** Summary records made now: persist them and pass them back as `summaries`. */
  readonly records: ReadonlyArray<SummaryRecord>;
  readonly report: CompressionReport;
}

export interface HistoricalCompressionOutcome<TMessage = Item> extends CompressionOutcome<TMessage> {
  /** Where the current loop now starts in `messages` (for items given, also in `items`). */
  readonly newLoopStartIndex: number;
}

export interface CompressOptions {
  /** Persisted summary records to apply first. */
  readonly summaries?: ReadonlyArray<SummaryRecord>;
}

const DEFAULT_TOKEN_BUDGET = 128_000;

export class CompressionPipeline {
  readonly #pipeline: Pipeline;
  readonly #tokenizer: Tokenizer;
  readonly #tokenBudget: number;
  readonly #triggerThreshold: number;
  readonly #system: string | undefined;
  readonly #tools: ToolDefinition[];
  readonly #fixed: number;

  constructor(options: CompressionPipelineOptions = {}) {
    const plugin = new CompressionPlugin({
      strategies: [...(options?.strategies ?? DEFAULT_STRATEGIES)],
      tokenBudget: options.tokenBudget ?? DEFAULT_TOKEN_BUDGET,
      ...(options.triggerThreshold === undefined ? {} : { triggerThreshold: options.triggerThreshold }),
      ...(options.targetUsage === undefined ? {} : { targetUsage: options.targetUsage }),
      ...(options.minRecentMessages === undefined ? {} : { minRecentMessages: options.minRecentMessages }),
      ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
    });
    const tools = z.array(toolDefinitionSchema).safeParse(options.tools ?? []);
    if (!tools.success) throw new PluginOptionsError("CompressionPipeline", z.prettifyError(tools.error).replaceAll("→ at ", "→ at tools"));
    this.#tools = tools.data;
    this.#tokenizer = options.tokenizer ?? estimatingTokenizer;
    this.#tokenBudget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
    this.#triggerThreshold = options.triggerThreshold ?? 0.8;
    this.#system = options.system === undefined || options.system.length === 0 ? undefined : options.system;
    // Only the compress stage runs; the "renderer" hands back the compressed items.
    this.#pipeline = createPipeline({
      defaults: false,
      plugins: [
        plugin,
        {
          name: "CompressedItems",
          apply: (host) =>
            host.hooks.render.for(ITEMS_RENDERER).tap({ name: "CompressedItems" }, (items) => ({ request: [...items], tokenCount: 0, messageCount: items.length })),
        },
      ],
    });
    const parts: SystemPart[] = this.#system === undefined ? [] : [{ id: "system", text: this.#system, order: 0, addedBy: "CompressionPipeline" }];
    this.#fixed = estimateFixedTokens({ system: { add() {}, list: () => parts }, tools: this.#tools, tokenizer: this.#tokenizer });
  }

  /** getUsage: what a request made of these messages would cost, against the budget. */
  getUsage(messages: ReadonlyArray<CompressionInput>): CompressionUsage {
    // As build() reads a history: a record stored twice or edited is counted once, never refused.
    return this.#usageOf(parseInput(readMessages(messages).items).items);
  }

  /** Whether the messages are over the trigger point. */
  shouldCompress(messages: ReadonlyArray<CompressionInput>): boolean {
    return this.getUsage(messages).usagePercent > this.#triggerThreshold;
  }

  /** Compresses when over the trigger point, down toward the target; the newest user turn is protected. */
  async compressIfNeeded<TMessage extends CompressionInput>(messages: ReadonlyArray<TMessage>, options: CompressOptions = {}): Promise<CompressionOutcome<TMessage>> {
    const read = readMessages(messages);
    const outcome = await this.#run(read.items, undefined, options);
    return { ...outcome, messages: writeMessages<CompressedMessage<TMessage>>(read, outcome.items).messages };
  }

  /**
   * Compresses only what comes before `loopStartIndex`: the current loop's messages (from that index
   * on) come back unchanged, and `newLoopStartIndex` says where they now start.
   */
  async compressHistoricalMessages<TMessage extends CompressionInput>(
    messages: ReadonlyArray<TMessage>,
    loopStartIndex: number,
    options: CompressOptions = {},
  ): Promise<HistoricalCompressionOutcome<TMessage>> {
    if (!Number.isInteger(loopStartIndex) || loopStartIndex < 0 || loopStartIndex > messages.length) {
      throw new PluginOptionsError("CompressionPipeline", `  loopStartIndex: must be an integer from 0 to ${messages.length} (the number of messages), got ${String(loopStartIndex)}`);
    }
    const read = readMessages(messages);
    // The index is the caller's, into the records as given (copies and earlier versions included).
    const loopStartId = loopStartIndex < messages.length ? firstItemIdOf(read, loopStartIndex) : undefined;
    const outcome = await this.#run(read.items, loopStartId, options);
    const written = writeMessages<CompressedMessage<TMessage>>(read, outcome.items);
    const newLoopStartIndex = loopStartId === undefined ? written.messages.length : (written.indexOfItem.get(loopStartId) ?? written.messages.length);
    return { ...outcome, messages: written.messages, newLoopStartIndex };
  }

  async #run(items: ReadonlyArray<ItemInput>, loopStartId: string | undefined, options: CompressOptions): Promise<Omit<CompressionOutcome, "messages">> {
    // The items "renderer" is private to this class, so it is not added to core's renderer names.
    const build = this.#pipeline.build.bind(this.#pipeline) as (items: ReadonlyArray<ItemInput>, options: BuildOptions) => Promise<BuildResult<unknown>>;
    const result = await build(items, {
      renderer: ITEMS_RENDERER as RendererName,
      tokenizer: this.#tokenizer,
      ...(this.#system === undefined ? {} : { system: this.#system }),
      ...(this.#tools.length === 0 ? {} : { tools: this.#tools }),
      ...(options.summaries === undefined ? {} : { summaries: options.summaries }),
      ...(loopStartId === undefined ? {} : { compression: { loopStartId } }),
    });
    const compressed = result.request as unknown as Item[];
    const report = result.report.compression!;
    return { items: compressed, compressed: report.ran, usage: this.#usageOf(compressed), records: report.records, report };
  }

  #usageOf(items: ReadonlyArray<Item>): CompressionUsage {
    const tokenizer = this.#tokenizer;
    const context = { countTokens: (item: Item) => tokenizer.count(itemText(item)) };
    let tokens = this.#fixed;
    for (const item of items) tokens += estimateItemTokens(item, context);
    return { tokens, tokenBudget: this.#tokenBudget, usagePercent: tokens / this.#tokenBudget, exact: tokenizer.exact };
  }
}
