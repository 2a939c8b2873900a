// Options every loop takes (chat, agent and run mode), checked once when the loop is made.
import { CompressionPlugin, type CompressionPluginOptions, DEFAULT_STRATEGIES } from "@ctxpipe/compression";
import { type BuildOptions, createPipeline, type Pipeline, type PipelinePlugin, PluginOptionsError } from "@ctxpipe/core";
import type { ConversationStore } from "@ctxpipe/store";
import { systemPromptPlugins, type ToolPolicyConfig } from "@ctxpipe/system-prompt";
import type { ModelAdapter } from "../model/model-adapter.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { CountingPipeline } from "./counting-pipeline.js";
import { type LoopCounting, resolveLoopCounting, type TokenCountingOptions } from "./loop-token-counting.js";
import { PersistedTokenCounts, storeTokenCounts } from "./persisted-token-counts.js";
import { DEFAULT_MAX_RETRY_DELAY_MS, defaultRetryTiming, type RetryTiming } from "./retry-delay.js";

export interface LoopOptions {
  readonly model: ModelAdapter;
  /**
   * Where conversations are persisted. Required to use conversation ids. A store that keeps token
   * counts (JsonlStore, PostgresStore) also keeps each text's count, so another process does not
   * tokenize the history again.
   */
  readonly store?: ConversationStore;
  readonly tools?: ReadonlyArray<LoopTool>;
  /** The system-level tool policy, merged with each call's agent-level one (a deny wins). */
  readonly systemToolPolicy?: ToolPolicyConfig;
  /**
   * The pipeline every conversation is built with, used as given: it counts with its own tokenizer
   * and gets no default budget. Default: one per conversation, with the system prompt plugins, a
   * CompressionPlugin (see `compression`) and `plugins`, counting for the model (see `tokenCounting`).
   */
  readonly pipeline?: Pipeline;
  /**
   * How the default pipelines count. By default they count for the model adapter's `model` through
   * the model registry of @ctxpipe/tokenizers: exactly for OpenAI models, with an approximation
   * flagged inexact for Claude and Gemini that learns from the usage each call reports. Their builds
   * get the model's budget: `maxTokens` its context window, `reserveOutputTokens` its output limit
   * (at most 32,000, and at most a quarter of a smaller `maxTokens` you give), unless `buildOptions`
   * gives them. A model the registry does not know is an
   * UnknownModelError when the loop is made, unless `fallback` is given (with `buildOptions.maxTokens`).
   * An adapter without a model name (a scripted model) counts with core's estimate and has no default
   * budget, unless `tokenCounting` says how to count. Not with `pipeline`, which counts as it is made to.
   */
  readonly tokenCounting?: TokenCountingOptions;
  /** Plugins added to the default pipelines, e.g. a renderer for the model's provider. */
  readonly plugins?: ReadonlyArray<PipelinePlugin>;
  /**
   * The default pipelines' CompressionPlugin, or false for none. Default: DEFAULT_STRATEGIES (cut tool
   * results over their cap, clear old tool results, then slide the window), with `notice: true`, which
   * options of your own get too unless they say `notice: false`.
   */
  readonly compression?: CompressionPluginOptions | false;
  /**
   * Passed to every build: maxTokens, reserveOutputTokens, validation, system... `maxTokens` and
   * `reserveOutputTokens` replace the model's defaults (see `tokenCounting`).
   */
  readonly buildOptions?: Omit<BuildOptions, "renderer" | "tools" | "summaries" | "mode" | "agent" | "toolPolicy" | "systemToolPolicy" | "runContext">;
  /** Model calls per loop call. Default 20, as in chat mode's tool loop. */
  readonly maxTurns?: number;
  /** Identical failures in a row (counted from the log) that stop with RepeatedFailureError. Default 3. */
  readonly maxRepeatedFailures?: number;
  /**
   * Retries of a retryable failure (429, 5xx, network, timeout) within one model call. Retries are not
   * persisted: the log gets the call's answer, or its final failure as one error message. Default 2.
   */
  readonly maxRetries?: number;
  /**
   * Wait before the first retry; each next one waits twice as long, less up to a quarter of jitter, at
   * most maxRetryDelayMs. A wait the provider asks for (Retry-After) replaces it. Default 1000 ms.
   */
  readonly retryDelayMs?: number;
  /**
   * The longest wait before a retry. A provider that asks for longer (Retry-After) is not retried within
   * the call: the call fails, and its error's retryAfterMs says when to come back. Default 60000 ms.
   */
  readonly maxRetryDelayMs?: number;
  /** How the loop waits before a retry; it should return early when the signal fires. Default: a timer. Tests pass one that records the waits. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The retry jitter's random source, in [0, 1). Default Math.random. */
  readonly random?: () => number;
  /** Message ids. Default crypto.randomUUID. */
  readonly newId?: () => string;
  /** Message times. Default the clock. */
  readonly now?: () => Date;
  /**
   * What the next call does with tool calls whose result was never persisted (the process stopped
   * first): "answer" persists a result saying the call was interrupted and not run again, so a tool
   * with side effects never runs twice; "rerun" runs the tool again, with `interrupted: true` in its
   * context. Default "answer".
   */
  readonly interruptedToolCalls?: "answer" | "rerun";
}

export interface ResolvedLoopOptions {
  readonly maxTurns: number;
  readonly maxRepeatedFailures: number;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly retryTiming: RetryTiming;
  readonly newId: () => string;
  readonly now: () => Date;
  /** The default pipelines' tokenizer and budget; undefined when they count with core's estimate. */
  readonly counting: LoopCounting | undefined;
}

/** Counting resolved when the loop was made, for its PipelinePerConversation (made with the same options). */
const resolvedCounting = new WeakMap<LoopOptions, LoopCounting | undefined>();

function countingOf(owner: string, options: LoopOptions): LoopCounting | undefined {
  if (resolvedCounting.has(options)) return resolvedCounting.get(options);
  if (options.pipeline !== undefined && options.tokenCounting !== undefined) {
    throw new PluginOptionsError(owner, "tokenCounting: applies to the loop's own pipelines; a pipeline of your own counts with its own tokenizer (give it a TokenizerPlugin), so leave one of the two out");
  }
  const counting = options.pipeline === undefined ? resolveLoopCounting(owner, options.model, options.tokenCounting, options.buildOptions) : undefined;
  resolvedCounting.set(options, counting);
  return counting;
}

function positiveInteger(owner: string, field: string, value: number | undefined, fallback: number, minimum = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum) throw new PluginOptionsError(owner, `${field}: must be an integer of at least ${minimum}, got ${String(value)}`);
  return value;
}

function injected<F>(owner: string, field: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== "function") throw new PluginOptionsError(owner, `${field}: must be a function, got ${typeof value}`);
  return value;
}

export function resolveLoopOptions(owner: string, options: LoopOptions): ResolvedLoopOptions {
  if (typeof options?.model?.complete !== "function" || typeof options.model.renderer !== "string") {
    throw new PluginOptionsError(owner, "model: must be a model adapter { name, renderer, complete(call) }, e.g. openAICompatibleModel(...) or scriptedModel(...)");
  }
  const names = new Set<string>();
  (options.tools ?? []).forEach((tool, index) => {
    if (typeof tool?.run !== "function") throw new PluginOptionsError(owner, `tools[${index}]: needs a run(args, context) function`);
    if (names.has(tool.name)) throw new PluginOptionsError(owner, `tools[${index}].name: "${tool.name}" is given twice`);
    names.add(tool.name);
  });
  return {
    maxTurns: positiveInteger(owner, "maxTurns", options.maxTurns, 20),
    maxRepeatedFailures: positiveInteger(owner, "maxRepeatedFailures", options.maxRepeatedFailures, 3),
    maxRetries: positiveInteger(owner, "maxRetries", options.maxRetries, 2, 0),
    retryDelayMs: positiveInteger(owner, "retryDelayMs", options.retryDelayMs, 1000, 0),
    retryTiming: {
      maxDelayMs: positiveInteger(owner, "maxRetryDelayMs", options.maxRetryDelayMs, DEFAULT_MAX_RETRY_DELAY_MS, 0),
      sleep: injected(owner, "sleep", options.sleep) ?? defaultRetryTiming.sleep,
      random: injected(owner, "random", options.random) ?? defaultRetryTiming.random,
    },
    newId: options.newId ?? (() => crypto.randomUUID()),
    now: options.now ?? (() => new Date()),
    // Last: an unknown model is reported after the options that are simply malformed.
    counting: countingOf(owner, options),
  };
}

/**
 * One pipeline per conversation, so each one's cache report compares with its own previous build and
 * its tokenizer learns from that conversation's usage. When the store keeps token counts, each
 * conversation's pipeline loads them before its first build and appends the new ones after each build.
 */
export class PipelinePerConversation {
  readonly #options: LoopOptions;
  readonly #counting: LoopCounting | undefined;
  readonly #pipelines = new Map<string, Pipeline>();
  static readonly LIMIT = 64;

  constructor(options: LoopOptions) {
    this.#options = options;
    this.#counting = countingOf("the loop", options);
  }

  for(conversationId: string | undefined): Pipeline {
    if (this.#options.pipeline !== undefined) return this.#options.pipeline;
    if (conversationId === undefined) return this.#create(undefined);
    let pipeline = this.#pipelines.get(conversationId);
    if (pipeline === undefined) {
      pipeline = this.#create(conversationId);
      if (this.#pipelines.size >= PipelinePerConversation.LIMIT) this.#pipelines.delete(this.#pipelines.keys().next().value!);
    } else {
      this.#pipelines.delete(conversationId);
    }
    this.#pipelines.set(conversationId, pipeline);
    return pipeline;
  }

  #create(conversationId: string | undefined): Pipeline {
    // The notice is on in the loops unless the options say `notice: false`: a model told that a result
    // was cut, and how to read it back, asks instead of guessing.
    const given = this.#options.compression;
    const compression = given === false ? false : { notice: true, ...(given ?? { strategies: [...DEFAULT_STRATEGIES] }) };
    const plugins = [...systemPromptPlugins(), ...(compression === false ? [] : [new CompressionPlugin(compression)]), ...(this.#options.plugins ?? [])];
    if (this.#counting === undefined) return createPipeline({ plugins });
    const { maxTokens, reserveOutputTokens } = this.#options.buildOptions ?? {};
    // A store that keeps token counts spares a process that never built the conversation its tokenizing.
    const source = storeTokenCounts(this.#options.store, conversationId);
    const persisted = source === undefined ? undefined : new PersistedTokenCounts(this.#counting.tokenizer, source);
    // Read now, while the loop loads the log: the first build finds them in the memo.
    void persisted?.ready();
    return new CountingPipeline(
      { plugins },
      this.#counting,
      { ...(maxTokens === undefined ? {} : { maxTokens }), ...(reserveOutputTokens === undefined ? {} : { reserveOutputTokens }) },
      persisted,
    );
  }
}
