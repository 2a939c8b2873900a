// The tokenizer and budget an integration builds with for a model name (the AI SDK's model id, a
// LangChain model's name), in one place so they cannot drift apart: the registry's counts and window
// for a known model, a flagged approximation with the caller's maxTokens for an unknown one, and an
// error naming what to give when neither is there — never a silent chars/4.
import { CtxpipeError, ERROR_CODES, PluginOptionsError, type Tokenizer } from "@ctxpipe/core";
import { createTokenizer } from "../create-tokenizer.js";
import type { EncodingName } from "../encodings/encoding-name.js";
import { UnknownModelError } from "../errors/unknown-model-error.js";
import { modelDefaults } from "./model-defaults.js";
import { findModel } from "./resolve-model.js";

export interface ModelBudgetOptions {
  /** The whole request's budget. Default: the model's context window; required for an unknown model. */
  readonly maxTokens?: number | undefined;
  /** Tokens kept free for the answer. Default: the registry's reserve for the model. */
  readonly reserveOutputTokens?: number | undefined;
  /** Count with this tokenizer instead of the model's. */
  readonly tokenizer?: Tokenizer | undefined;
  /** The encoding an unknown model is counted with (flagged inexact). Default "o200k_base". */
  readonly fallback?: EncodingName | undefined;
}

export interface ModelBudget {
  /** The registry's family name of a known model ("gpt-4o" for "gpt-4o-2024-08-06"), else the name as given. */
  readonly model: string | undefined;
  readonly tokenizer: Tokenizer;
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
}

/** How the caller names things in its errors: its own options, not this function's. */
export interface ModelBudgetErrors {
  /** The package or function, for PluginOptionsError (e.g. "@ctxpipe/ai-sdk"). */
  readonly owner: string;
  /** The unknown model's message, given its name and the registry's close names (a sentence or ""). */
  readonly unknownModel: (name: string, closeNames: string) => string;
  /** The message when there is no model name and no maxTokens. */
  readonly noModel: string;
}

// One tokenizer per model and encoding: making one loads its encoding, and renderers remember counts
// per tokenizer object, so a second object for the same model would count everything again.
const tokenizers = new Map<string, Tokenizer>();

function tokenizerFor(name: string, fallback: EncodingName | undefined): Tokenizer {
  const key = `${name}\u0000${fallback ?? ""}`;
  let tokenizer = tokenizers.get(key);
  if (tokenizer === undefined) {
    tokenizer = createTokenizer(name, fallback === undefined ? {} : { fallback });
    tokenizers.set(key, tokenizer);
  }
  return tokenizer;
}

function suggestionsFor(name: string): ReadonlyArray<string> {
  try {
    createTokenizer(name);
  } catch (error) {
    if (error instanceof UnknownModelError) return error.suggestions;
  }
  return [];
}

/**
 * The counting for a model name (undefined: the caller has none).
 *
 * @throws UnknownModelError for a name the registry does not know, without `maxTokens`.
 * @throws PluginOptionsError without a name and without `maxTokens`, or for a budget the registry
 *   refuses (a reserve that leaves the prompt no room), in the caller's words.
 */
export function resolveModelBudget(name: string | undefined, options: ModelBudgetOptions, errors: ModelBudgetErrors): ModelBudget {
  const known = name !== undefined && findModel(name) !== undefined;
  if (!known && options.maxTokens === undefined) {
    if (name === undefined) throw new PluginOptionsError(errors.owner, errors.noModel);
    const suggestions = suggestionsFor(name);
    const loud = new UnknownModelError(name, suggestions);
    loud.message = errors.unknownModel(name, suggestions.length === 0 ? "" : ` Close known names: ${suggestions.join(", ")}.`);
    throw loud;
  }
  // An unknown model with a budget is counted with an encoding of the caller's choice, flagged inexact.
  const fallback = known ? undefined : (options.fallback ?? "o200k_base");
  const counted = name ?? `(no model name, counted with ${fallback})`;
  try {
    const defaults = modelDefaults(counted, {
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.reserveOutputTokens === undefined ? {} : { reserveOutputTokens: options.reserveOutputTokens }),
      ...(fallback === undefined ? {} : { fallback }),
    });
    return Object.freeze({
      model: defaults.info?.model ?? name?.trim(),
      tokenizer: options.tokenizer ?? tokenizerFor(counted, fallback),
      maxTokens: defaults.maxTokens,
      reserveOutputTokens: defaults.reserveOutputTokens,
    });
  } catch (error) {
    // By code, not instanceof: the caller may sit on a copy of core of its own.
    if (CtxpipeError.isInstance(error) && error.code === ERROR_CODES.OPTIONS_INVALID) {
      throw new PluginOptionsError(errors.owner, error.message.replace(/^Invalid options for [^\n]*\n/, ""));
    }
    throw error;
  }
}
