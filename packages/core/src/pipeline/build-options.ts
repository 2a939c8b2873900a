// Options of one build. Plugin packages add their own per-build inputs by declaration merging:
//
//   declare module "@ctxpipe/core" {
//     interface BuildOptions { runContext?: RunContext }
//   }
import type { RendererName } from "../spec/renderer-output-map.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import type { ToolDefinitionInput } from "../spec/tool-definition.js";

/** A piece of the system prompt. Parts are merged into one leading system message, lowest order first. */
export interface SystemPartInput {
  /** Names the part in the report; defaults to "system-<position>". */
  readonly id?: string;
  readonly text: string;
  /** Lower comes first; equal orders keep the order they were added in. Default 0. */
  readonly order?: number;
}

/**
 * What the validate stage does with violations: "repair" (default) hands the items back to
 * repair-orphans once and checks again, failing if anything is left; "throw" fails the build at
 * once; "report" lists them in report.violations and sends the request anyway.
 */
export type ValidationMode = "repair" | "throw" | "report";

export interface ValidationOptions {
  /** Default "repair". */
  readonly mode?: ValidationMode;
  /** Rule ids to leave unchecked (e.g. "ANT-015" for a model that accepts prefill), or "strict" for every strict rule. */
  readonly ignore?: ReadonlyArray<string>;
}

/**
 * How the items are put in conversation order: "createdAt" (default) sorts the items that have a date
 * by it, among the positions they hold (ties, undated items and items whose date is not a date keep
 * their position); "input" keeps the order the items were given in, whatever their dates say. Use
 * "input" for a log that already has a total order (a @ctxpipe/store log), where processes with
 * skewed clocks must not reorder it.
 */
export type InputOrder = "createdAt" | "input";

export interface BuildOptions<R extends RendererName = RendererName> {
  /** Which renderer produces the request. Default "openai". */
  renderer?: R;
  /** The model the request is for; passed to renderers and tokenizer plugins. */
  model?: string;
  /** System prompt text, or parts merged in order into one leading system message. */
  system?: string | ReadonlyArray<string | SystemPartInput>;
  /** False leaves the system prompt out entirely, whatever the options and plugins added to it. Default true. */
  includeSystemPrompt?: boolean;
  /** Tools the model may call; renderers put them in the provider's format and count them. */
  tools?: ReadonlyArray<ToolDefinitionInput>;
  /**
   * The budget: the rendered request plus reserveOutputTokens must fit in it, or the oldest turns are
   * dropped until they do (the build fails when the newest turn alone does not fit). Default: no
   * budget, unless reserveOutputTokens is given (see there).
   */
  maxTokens?: number;
  /**
   * Tokens kept free for the model's answer; must be less than maxTokens. Renderers whose request
   * states the answer's length take it from here (Anthropic's `max_tokens`). Given without maxTokens,
   * the model's context window stands in for maxTokens when a plugin knows it (TokenizerPlugin from
   * @ctxpipe/tokenizers knows the models of its registry; for a model whose requests are capped below
   * the window, the cap plus this reserve): the request may use the window minus this reserve, and a
   * reserve as large as the window is refused. When no plugin knows the window the build has no
   * budget, and report.warnings says so. Default 0.
   */
  reserveOutputTokens?: number;
  /** Counts tokens for this build, overriding the tokenizer plugins. */
  tokenizer?: Tokenizer;
  /** How the items are put in conversation order (see InputOrder). Default "createdAt". */
  order?: InputOrder;
  /** A validation mode, or the mode and the rules to ignore. Default "repair". */
  validation?: ValidationMode | ValidationOptions;
  /**
   * Sent as OpenAI's `prompt_cache_key` (Chat Completions): requests with the same key and a shared
   * prefix are routed to the same cache. The conversation id is a good key; the loops pass theirs.
   * Overrides the renderer's promptCacheKey option; renderers of other providers ignore it.
   */
  promptCacheKey?: string;
}
