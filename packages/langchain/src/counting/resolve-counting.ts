// How the trim drop-in and the agent middleware count and what budget they build with, resolved from a
// model name through the registry of @ctxpipe/tokenizers (exact offline counts for OpenAI models, a
// flagged approximation for Claude and Gemini) or from a budget given outright. An unknown model is
// an error naming the option to give, never a silent chars/4.
import { CtxpipeError, ERROR_CODES, PluginOptionsError, type Tokenizer } from "@ctxpipe/core";
import { createTokenizer, type EncodingName, findModel, type ModelDefaults, modelDefaults, UnknownModelError } from "@ctxpipe/tokenizers";

export interface CountingOptions {
  /** Count as this registry model, e.g. "gpt-4o" or "claude-sonnet-4-5". */
  readonly model?: string | undefined;
  /** The budget. Default: the model's context window. */
  readonly maxTokens?: number | undefined;
  /** Tokens kept free for the answer. */
  readonly reserveOutputTokens?: number | undefined;
  /** Count with this tokenizer instead of the registry's. */
  readonly tokenizer?: Tokenizer | undefined;
  /** The encoding for a model the registry does not know (flagged inexact). Default "o200k_base" when maxTokens is given. */
  readonly fallback?: EncodingName | undefined;
}

export interface Counting {
  /** The model counted for, when there is one. */
  readonly model: string | undefined;
  readonly tokenizer: Tokenizer;
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
}

/** Where each option is named in the caller's API, for error texts. */
export interface CountingFields {
  readonly owner: string;
  /** e.g. "the agent's model (model.model)". */
  readonly modelSource: string;
}

// Tokenizers are made once per model and encoding: making one loads its encoding.
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

function unknownModel(fields: CountingFields, name: string, field: string): UnknownModelError {
  let suggestions: ReadonlyArray<string> = [];
  try {
    createTokenizer(name);
  } catch (error) {
    if (CtxpipeError.isInstance(error) && error.code === ERROR_CODES.MODEL_UNKNOWN) suggestions = (error as UnknownModelError).suggestions;
  }
  const loud = new UnknownModelError(name, [...suggestions]);
  const close = suggestions.length === 0 ? "" : ` Close known names: ${suggestions.join(", ")}.`;
  loud.message =
    `${fields.owner}: unknown model "${name}" (${field}): its tokenizer and context window are not known.${close} ` +
    `Give model: "<a known name>" to count it as that model, or maxTokens: <its context window> to count it with the o200k_base encoding (flagged inexact).`;
  return loud;
}

export function resolveCounting(fields: CountingFields, options: CountingOptions, modelName: string | undefined): Counting {
  const name = options.model ?? modelName;
  const field = options.model === undefined ? fields.modelSource : "model";
  const known = name !== undefined && findModel(name) !== undefined;
  const given = {
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.reserveOutputTokens === undefined ? {} : { reserveOutputTokens: options.reserveOutputTokens }),
  };
  if (!known && options.maxTokens === undefined) {
    if (name !== undefined) throw unknownModel(fields, name, field);
    throw new PluginOptionsError(
      fields.owner,
      `✖ no budget: ${fields.modelSource} has no model name to look up, and no maxTokens is given. Give model: "<a known name>" (exact counts and its context window) or maxTokens\n  → at model`,
    );
  }
  const fallback = known ? undefined : (options.fallback ?? "o200k_base");
  const counted = name ?? `(no model name, counted with ${fallback})`;
  let defaults: ModelDefaults;
  try {
    defaults = modelDefaults(counted, { ...given, ...(fallback === undefined ? {} : { fallback }) });
  } catch (error) {
    if (CtxpipeError.isInstance(error) && error.code === ERROR_CODES.OPTIONS_INVALID) throw new PluginOptionsError(fields.owner, error.message.replace(/^Invalid options for [^\n]*\n/, ""));
    throw error;
  }
  return {
    model: name,
    tokenizer: options.tokenizer ?? tokenizerFor(counted, fallback),
    maxTokens: defaults.maxTokens,
    reserveOutputTokens: defaults.reserveOutputTokens,
  };
}
