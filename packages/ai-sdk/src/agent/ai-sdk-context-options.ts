// What createAiSdkContext takes, checked once when the context is made so that a typo fails at start-up
// with the field's name, not inside the first model call.
import type { CompressionPluginOptions } from "@ctxpipe/compression";
import { type BuildOptions, type BuildResult, type Pipeline, type PipelinePlugin, PluginOptionsError, type SystemPartInput, type Tokenizer } from "@ctxpipe/core";
import { ENCODING_NAMES, type EncodingName } from "@ctxpipe/tokenizers";
import type { ToolSet } from "ai";
import type { AiSdkRequest } from "../messages/index.js";
import { OWNER } from "./model-counting.js";

/** Which way a build was asked for, and for which call. */
export interface AiSdkBuildInfo {
  /** "prepareStep" or "middleware" (transformParams). */
  readonly via: "prepareStep" | "middleware";
  /** The step's model id as the AI SDK gives it (e.g. "gpt-4o", "openai/gpt-4o"). */
  readonly modelId: string;
  /** The registry model the build counted for (or the id itself for an unknown model). */
  readonly countedAs: string;
  /** The step's number (prepareStep only). */
  readonly stepNumber?: number;
  /** "generate" or "stream" (middleware only). */
  readonly callType?: "generate" | "stream";
  /** The budget of the build: the prompt got maxTokens − reserveOutputTokens. */
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
}

export interface AiSdkContextOptions {
  /**
   * The whole call's budget, prompt and answer. Default: the model's context window, from its
   * modelId through the model registry of @ctxpipe/tokenizers. Required for a model the registry
   * does not know (then counted with `fallback`, flagged inexact).
   */
  readonly maxTokens?: number;
  /**
   * Tokens kept free for the answer. Default: the call's `maxOutputTokens` (middleware), else the
   * model's output limit (at most 32,000 and a quarter of maxTokens).
   */
  readonly reserveOutputTokens?: number;
  /** Count the model as this registry model, e.g. "gpt-4o" for a gateway's or a proxy's alias of it. */
  readonly countAs?: string;
  /** The encoding a model the registry does not know is counted with (with `maxTokens`). Default "o200k_base". */
  readonly fallback?: EncodingName;
  /** Count with this tokenizer instead of the model's. */
  readonly tokenizer?: Tokenizer;
  /**
   * The system prompt, replacing the caller's instructions (`system`/`instructions` of generateText,
   * or system messages). Default: the caller's are kept, and counted.
   */
  readonly system?: string | ReadonlyArray<string | SystemPartInput>;
  /**
   * The tools given to generateText/streamText, so that their definitions count in the budget of a
   * prepareStep build (prepareStep is not shown them). The middleware sees them without this.
   */
  readonly tools?: ToolSet;
  /**
   * The compression chain, or false for none (the oldest whole turns are then dropped to fit).
   * Default: the loops' chain, cut tool results over their cap, clear old tool results, then slide
   * the window (DEFAULT_STRATEGIES of @ctxpipe/compression).
   */
  readonly compression?: CompressionPluginOptions | false;
  /** Plugins added to the context's pipeline. */
  readonly plugins?: ReadonlyArray<PipelinePlugin>;
  /**
   * A pipeline of your own, used as it is instead of the context's (it must render "ai-sdk": register
   * AiSdkRendererPlugin). `compression` and `plugins` do not apply to it.
   */
  readonly pipeline?: Pipeline;
  /**
   * Passed to every build: how validation treats a violation (default "repair"), `includeSystemPrompt`,
   * and `summaries`, the summary records an earlier run made (`report.compression.records`), so that a
   * new context applies them instead of asking the summarizer again.
   */
  readonly buildOptions?: Pick<BuildOptions<"ai-sdk">, "validation" | "includeSystemPrompt" | "summaries">;
  /**
   * The most characters of cut or cleared originals the context keeps in memory for
   * `context.tools.retrieve_context` (the texts seen longest ago go first; the newest stays). Default
   * 20,000,000 (about 40 MB). 0 keeps none: `loadOffloaded` then finds them all.
   */
  readonly maxOffloadedChars?: number;
  /**
   * The most characters one retrieve_context call returns. Default: as the loops, a quarter of the
   * last build's prompt budget in characters, between 1,000 and 20,000 (DEFAULT_RETRIEVE_MAX_CHARS),
   * so what the model reads back fits in its next prompts.
   */
  readonly retrieveMaxChars?: number;
  /**
   * Where retrieve_context looks for a handle the context does not hold in memory (a text evicted, or
   * offloaded by another process): your store, filled from `report.offloaded` in `onBuild`.
   */
  readonly loadOffloaded?: (handle: string) => string | undefined | Promise<string | undefined>;
  /** Called after every build, before the model is called, with the result and what it was for. */
  readonly onBuild?: (result: BuildResult<AiSdkRequest>, info: AiSdkBuildInfo) => void | Promise<void>;
}

const KNOWN_OPTIONS = new Set([
  "maxTokens",
  "reserveOutputTokens",
  "countAs",
  "fallback",
  "tokenizer",
  "system",
  "tools",
  "compression",
  "plugins",
  "pipeline",
  "buildOptions",
  "onBuild",
  "maxOffloadedChars",
  "retrieveMaxChars",
  "loadOffloaded",
]);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "number" || typeof value === "boolean" ? String(value) : typeof value;
}

/**
 * The options, checked. Numbers, names and callbacks are checked here; the compression chain, the
 * system prompt and the build options by the plugins and the build that use them.
 *
 * @throws PluginOptionsError naming every field that does not fit.
 */
export function checkAiSdkContextOptions(options: AiSdkContextOptions | undefined): AiSdkContextOptions {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new PluginOptionsError(OWNER, `✖ expected an options object, got ${describe(options)}`);
  const problems: string[] = [];
  const problem = (field: string, text: string) => problems.push(`✖ ${text}\n  → at ${field}`);
  for (const key of Object.keys(options)) if (!KNOWN_OPTIONS.has(key)) problem(key, `unknown option "${key}"`);
  const wholeNumber = (field: "maxTokens" | "reserveOutputTokens" | "maxOffloadedChars" | "retrieveMaxChars", min: number) => {
    const value = options[field];
    if (value !== undefined && !(typeof value === "number" && Number.isSafeInteger(value) && value >= min)) problem(field, `expected a whole number of at least ${min}, got ${describe(value)}`);
  };
  wholeNumber("maxTokens", 1);
  wholeNumber("reserveOutputTokens", 0);
  wholeNumber("maxOffloadedChars", 0);
  wholeNumber("retrieveMaxChars", 1);
  if (options.loadOffloaded !== undefined && typeof options.loadOffloaded !== "function") problem("loadOffloaded", `expected a function (handle) => text or undefined, got ${describe(options.loadOffloaded)}`);
  if (options.countAs !== undefined && (typeof options.countAs !== "string" || options.countAs.trim() === "")) problem("countAs", `expected a model name, got ${describe(options.countAs)}`);
  if (options.fallback !== undefined && !ENCODING_NAMES.includes(options.fallback)) problem("fallback", `expected one of ${ENCODING_NAMES.join(", ")}, got ${describe(options.fallback)}`);
  if (options.tokenizer !== undefined && typeof options.tokenizer?.count !== "function") problem("tokenizer", `expected a tokenizer { name, exact, count(text) }, got ${describe(options.tokenizer)}`);
  if (options.onBuild !== undefined && typeof options.onBuild !== "function") problem("onBuild", `expected a function (result, info) => void, got ${describe(options.onBuild)}`);
  if (options.tools !== undefined && (typeof options.tools !== "object" || options.tools === null || Array.isArray(options.tools))) problem("tools", `expected the tool set given to generateText ({ name: tool(...) }), got ${describe(options.tools)}`);
  if (options.plugins !== undefined && !Array.isArray(options.plugins)) problem("plugins", `expected an array of plugins, got ${describe(options.plugins)}`);
  if (options.pipeline !== undefined && typeof options.pipeline?.build !== "function") problem("pipeline", `expected a pipeline (createPipeline(...)), got ${describe(options.pipeline)}`);
  if (options.pipeline !== undefined && (options.compression !== undefined || options.plugins !== undefined)) {
    problem("pipeline", "compression and plugins apply to the context's own pipeline; register them on your pipeline instead");
  }
  if (problems.length > 0) throw new PluginOptionsError(OWNER, problems.join("\n"));
  return options;
}
