// How a context counts for the model a step calls: the tokenizer and the budget, resolved from the
// model's id through the registry of @ctxpipe/tokenizers (the rule the loops and the CLI use), or from
// the options. An unknown model without a budget is an error, never a silent chars/4.
import { CtxpipeError, ERROR_CODES, PluginOptionsError, type Tokenizer } from "@ctxpipe/core";
import { createTokenizer, type EncodingName, findModel, modelDefaults, UnknownModelError } from "@ctxpipe/tokenizers";

/** The tokenizer and budget of every build for one model. */
export interface ModelCounting {
  /** The name counted for: the registry's family name, or the id as given for an unknown model. */
  readonly model: string;
  readonly tokenizer: Tokenizer;
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
}

/** The options that decide how a model is counted. */
export interface ModelCountingOptions {
  readonly maxTokens?: number | undefined;
  readonly reserveOutputTokens?: number | undefined;
  readonly countAs?: string | undefined;
  readonly fallback?: EncodingName | undefined;
  readonly tokenizer?: Tokenizer | undefined;
}

export const OWNER = "@ctxpipe/ai-sdk";

/** The registry's unknown-model error, reworded with this package's options. */
function unknownModel(error: Pick<UnknownModelError, "model" | "suggestions">, field: string): UnknownModelError {
  const close = error.suggestions.length === 0 ? "" : ` Close known names: ${error.suggestions.join(", ")}.`;
  const loud = new UnknownModelError(error.model, error.suggestions);
  loud.message =
    `${OWNER}: unknown model "${error.model}" (${field}): ctxpipe does not know its tokenizer or context window, so it cannot keep the prompt inside it.${close} ` +
    `Give maxTokens (the model's context window; counts then use the o200k_base encoding plus a 10% margin, flagged inexact), ` +
    `or countAs: "<a known model>" to count it as that model (e.g. for a gateway's alias).`;
  Error.captureStackTrace?.(loud, unknownModel);
  return loud;
}

/** The registry's option errors, reworded with this package's option names. */
function asOptionsError(error: CtxpipeError): PluginOptionsError {
  return new PluginOptionsError(OWNER, error.message.replace(/^Invalid options for [^\n]*\n/, ""));
}

/**
 * The counting for a model id.
 *
 * @throws UnknownModelError for a model the registry does not know, without `maxTokens`.
 * @throws PluginOptionsError for a reserve that leaves the prompt no room.
 */
export function resolveModelCounting(modelId: string, options: ModelCountingOptions): ModelCounting {
  const name = options.countAs ?? modelId;
  const field = options.countAs === undefined ? "the model's modelId" : "countAs";
  const known = findModel(name) !== undefined;
  const budget = {
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.reserveOutputTokens === undefined ? {} : { reserveOutputTokens: options.reserveOutputTokens }),
  };
  if (!known && options.maxTokens === undefined) throw unknownModel({ model: name, suggestions: suggestionsFor(name) }, field);
  // An unknown model with a budget is counted with an encoding of the caller's choice, flagged inexact.
  const fallback = known ? undefined : (options.fallback ?? "o200k_base");
  try {
    const defaults = modelDefaults(name, { ...budget, ...(fallback === undefined ? {} : { fallback }) });
    const tokenizer = options.tokenizer ?? createTokenizer(name, fallback === undefined ? {} : { fallback });
    return Object.freeze({
      model: defaults.info?.model ?? name.trim(),
      tokenizer,
      maxTokens: defaults.maxTokens,
      reserveOutputTokens: defaults.reserveOutputTokens,
    });
  } catch (error) {
    // By code, not instanceof: the tokenizers package may sit on a copy of core of its own.
    if (CtxpipeError.isInstance(error) && error.code === ERROR_CODES.OPTIONS_INVALID) throw asOptionsError(error);
    throw error;
  }
}

function suggestionsFor(name: string): ReadonlyArray<string> {
  try {
    createTokenizer(name);
    return [];
  } catch (error) {
    return CtxpipeError.isInstance(error) && error.code === ERROR_CODES.MODEL_UNKNOWN ? (error as UnknownModelError).suggestions : [];
  }
}
