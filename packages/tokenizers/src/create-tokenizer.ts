// The tokenizer for a model name: exact for OpenAI models, an approximation flagged inexact for
// Claude and Gemini, the caller's fallback encoding (also inexact) for unknown names, and
// UnknownModelError otherwise. The same arguments return the same tokenizer object.
import { PluginOptionsError } from "@ctxpipe/core";
import { DEFAULT_FACTORS, DEFAULT_SAFETY_MARGIN } from "./approximate/default-factors.js";
import { type ApproximateTokenizer, createApproximateTokenizer, FACTOR_RANGE } from "./approximate/approximate-tokenizer.js";
import { DEFAULT_BACKEND, TOKENIZER_BACKENDS, type TokenizerBackend } from "./backends/tokenizer-backend.js";
import { ENCODING_NAMES, type EncodingName } from "./encodings/encoding-name.js";
import type { ExactTokenizer } from "./exact-tokenizer.js";
import { getEncoding } from "./get-encoding.js";
import { checkOptions, nonEmptyString, numberBetween, oneOf, type OptionCheck } from "./options/check-options.js";
import { findModel, resolveModel } from "./registry/resolve-model.js";

export interface CreateTokenizerOptions {
  /** Which implementation counts (the base count of approximations too). Default: "gpt-tokenizer". */
  readonly backend?: TokenizerBackend;
  /** Encoding to count unknown models with, flagged inexact. Without it, unknown models throw UnknownModelError. */
  readonly fallback?: EncodingName;
  /** Approximations and fallbacks only: headroom added to the count, from 0 to 1. Default 0.1 (10%). */
  readonly safetyMargin?: number;
  /**
   * Approximations and fallbacks only: provider tokens per base token to start from, e.g. a factor
   * an earlier process learnt with calibrate(). Default: 1.2 for Claude, 1.1 for Gemini, 1 for fallbacks.
   */
  readonly factor?: number;
}

/** What createTokenizer returns: check `exact` to tell the two apart. */
export type ModelTokenizer = ExactTokenizer | ApproximateTokenizer;

export const CREATE_TOKENIZER_OPTION_CHECKS: Readonly<Record<keyof CreateTokenizerOptions, OptionCheck>> = Object.freeze({
  backend: oneOf(TOKENIZER_BACKENDS),
  fallback: oneOf(ENCODING_NAMES),
  safetyMargin: numberBetween(0, 1),
  factor: numberBetween(FACTOR_RANGE.min, FACTOR_RANGE.max),
});

const approximations = new Map<string, ApproximateTokenizer>();

function memoized(key: string, create: () => ApproximateTokenizer): ApproximateTokenizer {
  let tokenizer = approximations.get(key);
  if (tokenizer === undefined) {
    tokenizer = create();
    approximations.set(key, tokenizer);
  }
  return tokenizer;
}

/**
 * The tokenizer for a model. OpenAI models get their exact encoding; Claude and Gemini models an
 * approximation (`exact: false`) from o200k_base with a safety margin, which `calibrate()` refines
 * from reported usage; unknown models the `fallback` encoding if one is given.
 *
 * @throws UnknownModelError when the model is unknown and no fallback is given.
 * @throws PluginOptionsError for invalid options.
 */
export function createTokenizer(model: string, options: CreateTokenizerOptions = {}): ModelTokenizer {
  checkOptions("createTokenizer()", options, CREATE_TOKENIZER_OPTION_CHECKS);
  const modelProblem = nonEmptyString(model);
  if (modelProblem !== undefined) throw new PluginOptionsError("createTokenizer()", `✖ ${modelProblem}\n  → at model`);
  const backend = options.backend ?? DEFAULT_BACKEND;
  const safetyMargin = options.safetyMargin ?? DEFAULT_SAFETY_MARGIN;
  const info = options.fallback === undefined ? resolveModel(model) : findModel(model);
  if (info?.exact === true) return getEncoding(info.encoding, { backend });
  if (info !== undefined && info.provider !== "openai") {
    const factor = options.factor ?? DEFAULT_FACTORS[info.provider];
    const key = `approximation:${info.model}:${backend}:${factor}:${safetyMargin}`;
    return memoized(key, () =>
      createApproximateTokenizer({ kind: "approximation", model: info.model, base: getEncoding(info.encoding, { backend }), factor, safetyMargin }),
    );
  }
  // Unknown, and the caller chose the encoding to count it with.
  const fallback = options.fallback as EncodingName;
  const name = model.trim();
  const factor = options.factor ?? 1;
  return memoized(`fallback:${name}:${fallback}:${backend}:${factor}:${safetyMargin}`, () =>
    createApproximateTokenizer({ kind: "fallback", model: name, base: getEncoding(fallback, { backend }), factor, safetyMargin }),
  );
}
