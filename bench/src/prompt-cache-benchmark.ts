// The prompt cache in an agent loop with compression on: how much of each request's input a
// provider's prompt cache can serve, for Anthropic (with and without ctxpipe's cache_control
// breakpoints), OpenAI and Gemini. No provider is called: each provider's documented cache rules are
// applied to the requests ctxpipe builds, turn after turn (see PROMPT_CACHE_RULES, printed with the figures).
import { createHash } from "node:crypto";
import { CompressionPlugin, DEFAULT_STRATEGIES } from "@ctxpipe/compression";
import { type CacheBreakpoint, createPipeline, importStoredMessages, type Item, type PipelinePlugin, type Tokenizer } from "@ctxpipe/core";
import { type AnthropicMessagesRequest, AnthropicMessagesRendererPlugin, anthropicMinimumCacheableTokens, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { AGENT_SYSTEM_PROMPT } from "./agent-system-prompt.js";
import { generateConversation, type StoredMessage } from "./generate-conversation.js";

/** The rules each simulation applies, in words: printed above the figures. */
export const PROMPT_CACHE_RULES = [
  "anthropic: a request reads the cache only at its cache_control breakpoints: the longest cached prefix ending at the breakpoint's block or at most 20 blocks before it;",
  "  each breakpoint writes the prefix up to its block when that prefix is at least the model's minimum (claude-sonnet-4-5: 1,024 tokens); without breakpoints nothing is cached",
  "openai (Chat Completions and Responses): automatic, for the prefix shared with the previous request once it is 1,024 tokens or more, in steps of 128 tokens (the same with or without a prompt_cache_key here:",
  "  the key only routes a conversation's requests to the same cache, which this simulation assumes)",
  "gemini (gemini-2.5-flash): implicit caching of the prefix shared with the previous request once it is 1,024 tokens or more; no breakpoints to place",
  "prefixes are compared whole message by whole message, in ctxpipe's token count of each request (exact o200k counts, an approximation for Claude and Gemini)",
];

/** Anthropic looks for an earlier cache entry at most this many blocks before a breakpoint. */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;
/** OpenAI caches prompts of at least 1,024 tokens, then in 128-token steps. */
export const OPENAI_MINIMUM_CACHED_TOKENS = 1024;
export const OPENAI_CACHE_STEP_TOKENS = 128;
/** Gemini 2.5 Flash's minimum for (implicit) context caching. */
export const GEMINI_MINIMUM_CACHED_TOKENS = 1024;

const ANTHROPIC_MODEL = "claude-sonnet-4-5";

/** The cached part of a prefix OpenAI can reuse: none below 1,024 tokens, then whole 128-token steps. */
export function openAICachedTokens(sharedPrefixTokens: number): number {
  if (sharedPrefixTokens < OPENAI_MINIMUM_CACHED_TOKENS) return 0;
  return OPENAI_MINIMUM_CACHED_TOKENS + Math.floor((sharedPrefixTokens - OPENAI_MINIMUM_CACHED_TOKENS) / OPENAI_CACHE_STEP_TOKENS) * OPENAI_CACHE_STEP_TOKENS;
}

export function geminiCachedTokens(sharedPrefixTokens: number): number {
  return sharedPrefixTokens >= GEMINI_MINIMUM_CACHED_TOKENS ? sharedPrefixTokens : 0;
}

/** A block as the cache compares it: its content, without the cache_control marker. */
function contentKey(block: object): string {
  const { cache_control: _marker, ...content } = block as { cache_control?: unknown };
  return JSON.stringify(content);
}

/**
 * Anthropic's prompt cache over a conversation's requests: entries keyed by the exact prefix up to a
 * block (tools, then system, then each message's blocks), written at breakpoints, read back from a
 * breakpoint or up to 20 blocks before it.
 */
export class AnthropicCacheSimulation {
  readonly #entries = new Map<string, number>();
  readonly #minimum: number;

  constructor(model: string) {
    this.#minimum = anthropicMinimumCacheableTokens(model);
  }

  /** The tokens this request reads from the cache; then writes its own breakpoints' prefixes. */
  send(request: AnthropicMessagesRequest, breakpoints: ReadonlyArray<CacheBreakpoint>): number {
    const { prefixIds, blockOf } = prefixesOf(request);
    const placed = breakpoints.filter((breakpoint) => breakpoint.placed);
    let read = 0;
    for (const breakpoint of placed) {
      const at = blockOf(breakpoint);
      for (let block = at; block >= Math.max(0, at - ANTHROPIC_LOOKBACK_BLOCKS); block--) {
        const tokens = this.#entries.get(prefixIds[block]!);
        if (tokens !== undefined) {
          read = Math.max(read, tokens);
          break;
        }
      }
    }
    for (const breakpoint of placed) if (breakpoint.prefixTokens >= this.#minimum) this.#entries.set(prefixIds[blockOf(breakpoint)]!, breakpoint.prefixTokens);
    return read;
  }
}

/** An id for each prefix of the request's blocks, and the block a breakpoint marks. */
function prefixesOf(request: AnthropicMessagesRequest): { prefixIds: string[]; blockOf: (breakpoint: CacheBreakpoint) => number } {
  const prefixIds: string[] = [];
  let id = "";
  const add = (key: string) => {
    id = createHash("sha1").update(id).update(key).digest("hex");
    prefixIds.push(id);
  };
  for (const tool of request.tools ?? []) add(`tool ${contentKey(tool)}`);
  const toolsEnd = prefixIds.length - 1;
  if (request.system !== undefined) add(`system ${typeof request.system === "string" ? request.system : request.system.map((block) => block.text).join("")}`);
  const systemEnd = prefixIds.length - 1;
  const messageEnds: number[] = [];
  request.messages.forEach((message, index) => {
    for (const block of message.content) add(`${index} ${message.role} ${contentKey(block)}`);
    messageEnds.push(prefixIds.length - 1);
  });
  const blockOf = (breakpoint: CacheBreakpoint) => (breakpoint.part === "tools" ? toolsEnd : breakpoint.part === "system" ? systemEnd : messageEnds[breakpoint.messageIndex!]!);
  return { prefixIds, blockOf };
}

export interface PromptCacheRow {
  readonly provider: "anthropic" | "openai" | "openai-responses" | "gemini";
  readonly model: string;
  /** What the row's requests carry: ctxpipe's breakpoints, none, or the provider's automatic caching. */
  readonly label: string;
  readonly inputTokens: number;
  readonly cachedTokens: number;
  /** Turns whose request did not start with the whole previous one (the cut moved, or more was cleared). */
  readonly prefixBreaks: number;
}

export interface PromptCacheFigures {
  readonly turns: number;
  readonly budgetTokens: number;
  readonly rows: ReadonlyArray<PromptCacheRow>;
}

export interface PromptCacheOptions {
  /** Model calls in the loop. Default 200. */
  readonly turns?: number;
  /** The budget every request is built within. Default 128,000 tokens. */
  readonly budgetTokens?: number;
  readonly tokenizer: Tokenizer;
  readonly seed?: number;
}

/** The loop's model calls: the stored history up to each point where the assistant answers next. */
function callPoints(conversation: ReadonlyArray<StoredMessage>, turns: number): number[] {
  const points: number[] = [];
  for (let index = 1; index < conversation.length && points.length < turns; index++) if (conversation[index]!.role === "assistant") points.push(index);
  return points;
}

interface Subject {
  readonly provider: PromptCacheRow["provider"];
  readonly model: string;
  readonly label: string;
  readonly plugins: ReadonlyArray<PipelinePlugin>;
  /** The tokens the provider serves from its cache for this build. */
  cached(build: Build): number;
}

interface Build {
  readonly request: unknown;
  readonly tokenCount: number;
  readonly report: { readonly cache: { readonly reusableTokens?: number; readonly breakpoints?: ReadonlyArray<CacheBreakpoint>; readonly breaksAt?: string; readonly compared: boolean } };
}

function subjects(): Subject[] {
  const anthropic = new AnthropicCacheSimulation(ANTHROPIC_MODEL);
  return [
    {
      provider: "anthropic",
      model: ANTHROPIC_MODEL,
      label: "ctxpipe's cache_control breakpoints",
      plugins: [new AnthropicMessagesRendererPlugin()],
      cached: (build) => anthropic.send(build.request as AnthropicMessagesRequest, build.report.cache.breakpoints ?? []),
    },
    { provider: "anthropic", model: ANTHROPIC_MODEL, label: "no breakpoints (cache: false)", plugins: [new AnthropicMessagesRendererPlugin({ cache: false })], cached: () => 0 },
    { provider: "openai", model: "gpt-4o", label: "automatic (prompt_cache_key)", plugins: [], cached: (build) => openAICachedTokens(build.report.cache.reusableTokens ?? 0) },
    {
      provider: "openai-responses",
      model: "gpt-4o",
      label: "automatic (prompt_cache_key)",
      plugins: [new OpenAIResponsesRendererPlugin()],
      cached: (build) => openAICachedTokens(build.report.cache.reusableTokens ?? 0),
    },
    { provider: "gemini", model: "gemini-2.5-flash", label: "implicit", plugins: [new GeminiRendererPlugin()], cached: (build) => geminiCachedTokens(build.report.cache.reusableTokens ?? 0) },
  ];
}

export async function promptCacheBenchmark(options: PromptCacheOptions): Promise<PromptCacheFigures> {
  const turns = options.turns ?? 200;
  const budgetTokens = options.budgetTokens ?? 128_000;
  // Enough messages for the calls: a call comes every 1 to 3 messages.
  const conversation = generateConversation(turns * 4, options.seed ?? 42);
  const points = callPoints(conversation, turns);
  const rows: PromptCacheRow[] = [];
  for (const subject of subjects()) {
    const pipeline = createPipeline({ plugins: [new CompressionPlugin({ strategies: [...DEFAULT_STRATEGIES], notice: true }), ...subject.plugins] });
    const buildOptions = {
      renderer: subject.provider,
      model: subject.model,
      tokenizer: options.tokenizer,
      maxTokens: budgetTokens,
      system: AGENT_SYSTEM_PROMPT,
      promptCacheKey: "bench-conversation",
    } as const;
    // One item list grown in place, as an agent loop keeps its history.
    const items: Item[] = [];
    let imported = 0;
    let inputTokens = 0;
    let cachedTokens = 0;
    let prefixBreaks = 0;
    for (const point of points) {
      items.push(...importStoredMessages(conversation.slice(imported, point)));
      imported = point;
      const build = (await pipeline.build(items, buildOptions)) as Build;
      inputTokens += build.tokenCount;
      cachedTokens += Math.min(subject.cached(build), build.tokenCount);
      if (build.report.cache.compared && build.report.cache.breaksAt !== undefined) prefixBreaks++;
    }
    rows.push({ provider: subject.provider, model: subject.model, label: subject.label, inputTokens, cachedTokens, prefixBreaks });
  }
  return { turns: points.length, budgetTokens, rows };
}

const number = (value: number) => Math.round(value).toLocaleString("en-US");
const percent = (part: number, whole: number) => `${whole === 0 ? "0.0" : ((part / whole) * 100).toFixed(1)}%`;

/** The budgets the section runs: gpt-4o's window (the loop's usual budget), and a tight one where compression runs every few turns. */
export const PROMPT_CACHE_BUDGETS = [128_000, 50_000] as const;

/** The section as `pnpm bench` prints it: the rules, then a table per budget. */
export async function printPromptCacheBenchmark(
  log: (line: string) => void,
  tokenizer: Tokenizer,
  options: Omit<PromptCacheOptions, "tokenizer" | "budgetTokens"> & { readonly budgets?: ReadonlyArray<number> } = {},
): Promise<PromptCacheFigures[]> {
  const all: PromptCacheFigures[] = [];
  log("   cache hits: the share of all input tokens a provider's prompt cache serves, simulated from each provider's documented rules:");
  for (const rule of PROMPT_CACHE_RULES) log(rule.startsWith(" ") ? `    ${rule}` : `   · ${rule}`);
  log("   prefix breaks: turns whose request does not start with the whole previous one (compression moved the cut or cleared more)");
  for (const budgetTokens of options.budgets ?? PROMPT_CACHE_BUDGETS) {
    const figures = await promptCacheBenchmark({ ...options, budgetTokens, tokenizer });
    all.push(figures);
    log(`   ${number(figures.turns)} model calls of a generated coding agent, the default compression chain on, within ${number(figures.budgetTokens)} tokens:`);
    log(`   ${"provider".padEnd(16)} ${"model".padEnd(18)} ${"requests carry".padEnd(38)} ${"input tokens".padEnd(13)} ${"cached".padEnd(13)} ${"cache hits".padEnd(11)} prefix breaks`);
    for (const row of figures.rows) {
      log(
        `   ${row.provider.padEnd(16)} ${row.model.padEnd(18)} ${row.label.padEnd(38)} ${number(row.inputTokens).padEnd(13)} ${number(row.cachedTokens).padEnd(13)} ${percent(row.cachedTokens, row.inputTokens).padEnd(11)} ${row.prefixBreaks} of ${figures.turns}`,
      );
    }
  }
  return all;
}
