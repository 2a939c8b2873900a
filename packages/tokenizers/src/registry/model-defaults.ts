// The token-counting defaults of a model, resolved in one place so that the CLI and the loops cannot
// disagree: the whole request's budget is the model's window, of which the answer keeps its output
// limit (at most 32,000 and a quarter of the budget), and the prompt gets the rest, never more than
// the model accepts as input.
import { PluginOptionsError } from "@ctxpipe/core";
import { ENCODING_NAMES, type EncodingName } from "../encodings/encoding-name.js";
import { checkOptions, describeValue, nonEmptyString, oneOf, type OptionCheck } from "../options/check-options.js";
import type { ModelInfo } from "./model-info.js";
import { findModel, resolveModel } from "./resolve-model.js";

/**
 * The most tokens reserved for the answer by default. Models whose replies may reach 100,000 tokens
 * or more rarely need that much room, and reserving it all would take a third of a 400,000-token
 * window from the prompt.
 */
export const DEFAULT_OUTPUT_RESERVE_CAP = 32_000;

/**
 * The answer's default reserve for a model: its maxOutputTokens, at most DEFAULT_OUTPUT_RESERVE_CAP,
 * and at most a quarter of its context window (for the few old models, like gpt-4, whose output
 * limit is the whole window, so that the prompt keeps room).
 */
export function defaultOutputReserve(info: ModelInfo): number {
  return Math.min(info.maxOutputTokens, DEFAULT_OUTPUT_RESERVE_CAP, Math.floor(info.contextWindow / 4));
}

export interface ModelDefaultsOptions {
  /** The whole request's budget (prompt + answer), a whole number of at least 1. Default: the model's contextWindow. */
  readonly maxTokens?: number;
  /**
   * Tokens kept free for the answer, a whole number (0 allowed). Default: defaultOutputReserve(info),
   * at most a quarter of maxTokens; for a model the registry does not know, a quarter of maxTokens,
   * at most DEFAULT_OUTPUT_RESERVE_CAP.
   */
  readonly reserveOutputTokens?: number;
  /** Count a model the registry does not know with this encoding (flagged inexact); maxTokens is then required. */
  readonly fallback?: EncodingName;
}

/** Where a figure came from: a caller's option, or the registry's default for the model. */
export type ModelDefaultSource = "option" | "registry";

export interface ModelDefaults {
  /** The model name as given. */
  readonly model: string;
  /** The registry's entry; undefined for a model it does not know, counted with the fallback encoding. */
  readonly info: ModelInfo | undefined;
  /** Whether counts equal the provider's (OpenAI models). */
  readonly exact: boolean;
  /**
   * The build's maxTokens: the given budget or the model's window, lowered to maxInputTokens +
   * reserveOutputTokens where the model accepts less input than that leaves (GPT-5: 272,000 + 32,000),
   * so that a build given these two figures lets the prompt use exactly `inputBudget`.
   */
  readonly maxTokens: number;
  /** The build's reserveOutputTokens (for Anthropic, also the request's max_tokens). */
  readonly reserveOutputTokens: number;
  /** What the prompt may use: min(maxTokens − reserveOutputTokens, info.maxInputTokens when known). */
  readonly inputBudget: number;
  /**
   * Where each figure came from, for reports and --help: "option" when the caller gave it, "registry"
   * when it is the model's default (see outputReserveReason for why a reserve is what it is).
   */
  readonly sources: { readonly maxTokens: ModelDefaultSource; readonly reserveOutputTokens: ModelDefaultSource };
}

const OWNER = "modelDefaults()";

function wholeNumber(min: number): OptionCheck {
  return (value) => (typeof value === "number" && Number.isSafeInteger(value) && value >= min ? undefined : `expected a whole number of at least ${min}, got ${describeValue(value)}`);
}

const MODEL_DEFAULTS_OPTION_CHECKS: Readonly<Record<keyof ModelDefaultsOptions, OptionCheck>> = Object.freeze({
  maxTokens: wholeNumber(1),
  reserveOutputTokens: wholeNumber(0),
  fallback: oneOf(ENCODING_NAMES),
});

const count = (value: number) => value.toLocaleString("en-US");

/**
 * Why a result's reserve is what it is, e.g. "the output limit of gpt-4o" or "a quarter of maxTokens
 * 2,000": for reports and messages that say where the figures came from.
 */
export function outputReserveReason(defaults: ModelDefaults): string {
  const { info, reserveOutputTokens: reserve } = defaults;
  if (defaults.sources.reserveOutputTokens === "option") return "given as reserveOutputTokens";
  if (info !== undefined && reserve === defaultOutputReserve(info)) {
    if (reserve === info.maxOutputTokens) return `the output limit of ${info.model}`;
    if (reserve === DEFAULT_OUTPUT_RESERVE_CAP) return `the output limit of ${info.model}, capped at ${count(DEFAULT_OUTPUT_RESERVE_CAP)}`;
    return `a quarter of the ${count(info.contextWindow)}-token context window of ${info.model}, whose output limit is ${count(info.maxOutputTokens)}`;
  }
  if (reserve === DEFAULT_OUTPUT_RESERVE_CAP) return `the cap of ${count(DEFAULT_OUTPUT_RESERVE_CAP)}: no output limit is known for ${defaults.model}`;
  return `a quarter of maxTokens ${count(defaults.maxTokens)}`;
}

function invalid(field: keyof ModelDefaultsOptions | "model", problem: string): PluginOptionsError {
  return new PluginOptionsError(OWNER, `✖ ${problem}\n  → at ${field}`);
}

/**
 * The budget figures to build a model's requests with: maxTokens, reserveOutputTokens and the input
 * budget they leave, each either given or the registry's default for the model (see
 * docs/budget.md). Pass `{ maxTokens, reserveOutputTokens }` of the result to a build.
 *
 * @example
 * modelDefaults("gpt-4o"); // { maxTokens: 128_000, reserveOutputTokens: 16_384, inputBudget: 111_616, … }
 * modelDefaults("gpt-5"); // { maxTokens: 304_000, reserveOutputTokens: 32_000, inputBudget: 272_000, … }
 * modelDefaults("gpt-4o", { maxTokens: 8_000 }); // { maxTokens: 8_000, reserveOutputTokens: 2_000, inputBudget: 6_000, … }
 * modelDefaults("my-model", { fallback: "o200k_base", maxTokens: 32_000 }); // reserveOutputTokens: 8_000, exact: false
 *
 * @throws UnknownModelError for a model the registry does not know and no `fallback`, with close names as suggestions.
 * @throws PluginOptionsError naming the field: a bad number or encoding, a given reserve that leaves
 *   the prompt no room, or an unknown model with a fallback but no maxTokens.
 */
export function modelDefaults(model: string, options: ModelDefaultsOptions = {}): ModelDefaults {
  checkOptions(OWNER, options, MODEL_DEFAULTS_OPTION_CHECKS);
  const modelProblem = nonEmptyString(model);
  if (modelProblem !== undefined) throw invalid("model", modelProblem);
  const info = options.fallback === undefined ? resolveModel(model) : findModel(model);
  if (info === undefined && options.maxTokens === undefined) {
    throw invalid("maxTokens", `the registry does not know the context window of "${model}", which is counted with the fallback encoding ${options.fallback}: give maxTokens`);
  }
  const requested = options.maxTokens ?? (info as ModelInfo).contextWindow;
  // A budget smaller than the window keeps the answer's share of it: at most a quarter.
  const reserveOutputTokens = options.reserveOutputTokens ?? Math.min(info === undefined ? DEFAULT_OUTPUT_RESERVE_CAP : defaultOutputReserve(info), Math.floor(requested / 4));
  if (reserveOutputTokens >= requested) {
    const budget = info === undefined || options.maxTokens !== undefined ? `maxTokens ${count(requested)}` : `the ${count(requested)}-token context window of ${info.model}`;
    throw invalid("reserveOutputTokens", `${count(reserveOutputTokens)} tokens reserved for the answer leave no room for the prompt in ${budget}: must be less`);
  }
  // Core lets the prompt use maxTokens − reserve: lower maxTokens where the model's input limit is smaller.
  const maxTokens = info === undefined ? requested : Math.min(requested, info.maxInputTokens + reserveOutputTokens);
  const sources = Object.freeze({
    maxTokens: options.maxTokens === undefined ? "registry" : "option",
    reserveOutputTokens: options.reserveOutputTokens === undefined ? "registry" : "option",
  } as const);
  return Object.freeze({ model, info, exact: info?.exact ?? false, maxTokens, reserveOutputTokens, inputBudget: maxTokens - reserveOutputTokens, sources });
}
