// The options of `ctxpipe build` and `ctxpipe inspect`, once read and checked.
import { DEFAULT_STRATEGIES, type StrategyName } from "@ctxpipe/compression";
import type { SessionMode } from "@ctxpipe/system-prompt";
import type { EncodingName } from "@ctxpipe/tokenizers";

export const PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "xml"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const INPUT_FORMATS = ["auto", "json", "jsonl"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/**
 * What the conversation's records are: stored messages (the stored-message shape, Chat Completions
 * style), or items of OpenAI's Responses API; "auto" tells them apart (see detect-input-shape.ts).
 */
export const INPUT_SHAPES = ["auto", "stored", "openai-responses"] as const;
export type InputShape = (typeof INPUT_SHAPES)[number];

export const SUMMARIZERS = ["extractive", "openai"] as const;
export type SummarizerName = (typeof SUMMARIZERS)[number];

/**
 * The compression chain run when --compression is not given: @ctxpipe/compression's DEFAULT_STRATEGIES,
 * which the loops use too (the same array, so the two cannot drift apart).
 */
// DEFAULT_STRATEGIES is typed as any strategy input; it holds names only, which the CLI's flags need
// (parse-cli-args.test.ts checks it).
export const DEFAULT_COMPRESSION: ReadonlyArray<StrategyName> = DEFAULT_STRATEGIES as ReadonlyArray<StrategyName>;

export interface BuildCommandOptions {
  /** A path, or "-" for standard input. */
  readonly input: string;
  readonly format: InputFormat;
  readonly inputShape: InputShape;
  readonly provider: Provider;
  readonly model: string;
  /** The whole request's budget (prompt + answer); undefined: the model's default (see modelDefaults). */
  readonly maxTokens: number | undefined;
  /** Tokens kept free for the answer; undefined: the model's default (see modelDefaults). */
  readonly reserveOutput: number | undefined;
  readonly system: string | undefined;
  readonly systemFile: string | undefined;
  /** Strategies in chain order, or false for none. */
  readonly compression: ReadonlyArray<StrategyName> | false;
  readonly summaries: string | undefined;
  readonly summarizer: SummarizerName;
  readonly summarizerModel: string | undefined;
  readonly mode: SessionMode | undefined;
  readonly runContext: string | undefined;
  readonly agent: string | undefined;
  readonly tools: string | undefined;
  /** Sent as OpenAI's prompt_cache_key (both formats), as the loops send the conversation id. */
  readonly promptCacheKey: string | undefined;
  readonly fallbackEncoding: EncodingName | undefined;
  readonly report: boolean;
  readonly pretty: boolean;
  /** Whether a progress bar may be drawn on standard error (it is only drawn on a terminal). */
  readonly progress: boolean;
}

export interface InspectCommandOptions extends BuildCommandOptions {
  /** Where to write the HTML page; undefined: a table on standard output. */
  readonly html: string | undefined;
  /** Every row in the terminal table, instead of runs of kept items folded into one line. */
  readonly all: boolean;
}

export type CliCommand =
  | { readonly name: "build"; readonly options: BuildCommandOptions }
  | { readonly name: "inspect"; readonly options: InspectCommandOptions }
  | { readonly name: "help"; readonly topic: "build" | "inspect" | undefined }
  | { readonly name: "version" };
