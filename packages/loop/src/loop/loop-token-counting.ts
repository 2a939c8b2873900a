// How a loop counts: the tokenizer and the budget of its default pipelines, resolved once when the loop
// is made from the model adapter's model through the registry of @ctxpipe/tokenizers, the same
// resolver the CLI uses (modelDefaults). An unknown model is an error now, never a silent chars/4.
import { type BuildOptions, CtxpipeError, ERROR_CODES, PluginOptionsError } from "@ctxpipe/core";
import { createTokenizer, ENCODING_NAMES, type EncodingName, findModel, type ModelDefaults, type ModelTokenizer, modelDefaults, UnknownModelError } from "@ctxpipe/tokenizers";
import { z } from "zod";
import type { ModelAdapter } from "../model/model-adapter.js";

export interface TokenCountingOptions {
  /**
   * Count with this encoding a model the registry does not know (a local or self-hosted model). Its
   * counts are flagged inexact and learn from the usage each call reports; the budget must be given
   * with `buildOptions.maxTokens`.
   */
  readonly fallback?: EncodingName;
  /** Count as this registry model instead of the adapter's, e.g. "gpt-4o" for a gateway's alias of it. */
  readonly model?: string;
}

/** What the default pipelines count with, and the budget figures their builds get. */
export interface LoopCounting {
  /** The registry model (or the name counted with the fallback) the counts are for. */
  readonly model: string;
  /** The tokenizer builds start with; approximations are replaced by calibrated ones as usage comes in. */
  readonly tokenizer: ModelTokenizer;
  /** maxTokens and reserveOutputTokens for every build, the caller's buildOptions winning. */
  readonly budget: Pick<ModelDefaults, "maxTokens" | "reserveOutputTokens" | "inputBudget" | "sources">;
}

const optionsSchema = z.strictObject({
  fallback: z.enum(ENCODING_NAMES).optional(),
  model: z.string().trim().min(1).optional(),
});

/** The error of an unknown model, worded for the loop: where the name came from and the two ways out. */
function unknownModel(owner: string, error: Pick<UnknownModelError, "model" | "suggestions">, field: string): UnknownModelError {
  const close = error.suggestions.length === 0 ? "" : ` Close known names: ${error.suggestions.join(", ")}.`;
  const loud = new UnknownModelError(error.model, error.suggestions);
  loud.message =
    `${owner}: unknown model "${error.model}" (${field}): the loop does not know its tokenizer or context window.${close} ` +
    `Count it as a known model with tokenCounting: { model: "<known name>" }, or with an encoding and a budget: ` +
    `tokenCounting: { fallback: "o200k_base" } and buildOptions: { maxTokens: <its context window> } (those counts are flagged inexact).`;
  // The stack's first line was written with the registry's wording.
  Error.captureStackTrace?.(loud, unknownModel);
  return loud;
}

/** Where each field of createTokenizer() and modelDefaults() comes from in a loop's options. */
const LOOP_FIELDS: Readonly<Record<string, string>> = {
  maxTokens: "buildOptions.maxTokens",
  reserveOutputTokens: "buildOptions.reserveOutputTokens",
  fallback: "tokenCounting.fallback",
};

/** The registry's option errors, reworded with the loop's field names. */
function asLoopOptionsError(owner: string, error: CtxpipeError, modelField: string): PluginOptionsError {
  const details = error.message
    .replace(/^Invalid options for [^\n]*\n/, "")
    .replace(/→ at (\w+)$/gm, (_, field: string) => `→ at ${field === "model" ? modelField : (LOOP_FIELDS[field] ?? field)}`);
  return new PluginOptionsError(owner, details);
}

/**
 * The loop's counting for `model`, or undefined when there is nothing to count for: an adapter without a
 * model name (a scripted model) and no `tokenCounting`, or a `buildOptions.tokenizer` of the
 * caller's for a model the registry does not know. Then builds count as the caller's pipeline and
 * options say (core's estimate by default) and get no default budget.
 *
 * @throws UnknownModelError for an unknown model without `tokenCounting.fallback`.
 * @throws PluginOptionsError naming the field: bad `tokenCounting`, a fallback without
 *   `buildOptions.maxTokens`, or a reserve that leaves the prompt no room.
 */
export function resolveLoopCounting(
  owner: string,
  model: ModelAdapter,
  options: TokenCountingOptions | undefined,
  buildOptions: Pick<BuildOptions, "maxTokens" | "reserveOutputTokens" | "tokenizer"> | undefined,
): LoopCounting | undefined {
  const parsed = optionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw new PluginOptionsError(owner, z.prettifyError(parsed.error).replaceAll("→ at ", "→ at tokenCounting."));
  const { fallback } = parsed.data;
  const field = parsed.data.model === undefined ? "the model adapter's model" : "tokenCounting.model";
  // A fallback asked for is used even for an adapter without a model name, under the adapter's name.
  const name = parsed.data.model ?? model.model ?? (fallback === undefined ? undefined : model.name);
  if (name === undefined) return undefined;
  // The caller counts with a tokenizer of their own: the registry only adds the budget of a model it knows.
  if (buildOptions?.tokenizer !== undefined && fallback === undefined && findModel(name) === undefined) return undefined;

  let tokenizer: ModelTokenizer;
  let defaults: ModelDefaults;
  try {
    tokenizer = createTokenizer(name, fallback === undefined ? {} : { fallback });
    defaults = modelDefaults(name, {
      ...(buildOptions?.maxTokens === undefined ? {} : { maxTokens: buildOptions.maxTokens }),
      ...(buildOptions?.reserveOutputTokens === undefined ? {} : { reserveOutputTokens: buildOptions.reserveOutputTokens }),
      ...(fallback === undefined ? {} : { fallback }),
    });
  } catch (error) {
    // By code, not instanceof: the tokenizers package may sit on a copy of core of its own.
    if (CtxpipeError.isInstance(error) && error.code === ERROR_CODES.MODEL_UNKNOWN) throw unknownModel(owner, error as UnknownModelError, field);
    if (CtxpipeError.isInstance(error) && error.code === ERROR_CODES.OPTIONS_INVALID) throw asLoopOptionsError(owner, error, parsed.data.model === undefined ? "model.model" : "tokenCounting.model");
    throw error;
  }
  const { maxTokens, reserveOutputTokens, inputBudget, sources } = defaults;
  return { model: defaults.info?.model ?? name.trim(), tokenizer, budget: { maxTokens, reserveOutputTokens, inputBudget, sources } };
}
