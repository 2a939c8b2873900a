// Counts for models without a public local tokenizer (Claude, Gemini) and for unknown models given
// a fallback encoding:
//
//   count(text) = ceil(base.count(text) × factor × (1 + safetyMargin))
//
// `base` is an exact encoding, `factor` the expected ratio of the provider's tokens to the base's,
// and the margin the headroom kept for what the factor does not capture. The factor is learnt
// from the provider's own usage figures with calibrate(), which returns a new tokenizer: core caches
// counts per tokenizer object, so a tokenizer must never change what it counts.
import { CtxpipeError, ERROR_CODES, PluginOptionsError, type Tokenizer } from "@ctxpipe/core";
import type { ExactTokenizer } from "../exact-tokenizer.js";
import { describeValue } from "../options/check-options.js";
import { BaseCountCache } from "./base-count-cache.js";

/** What one request cost, for calibrate(). */
export interface TokenUsage {
  /** What ctxpipe counted for the request with this tokenizer: the build's `tokenCount`. */
  readonly counted: number;
  /** What the provider reported for the same request (Anthropic `usage.input_tokens`, Gemini `usageMetadata.promptTokenCount`). */
  readonly reported: number;
}

/** A tokenizer whose counts are estimates: `exact` is false, and it can learn from reported usage. */
export interface ApproximateTokenizer extends Tokenizer {
  readonly exact: false;
  /** "approximation": a known model without a local tokenizer; "fallback": an unknown model counted with the encoding the caller chose. */
  readonly kind: "approximation" | "fallback";
  /** The model the counts are for, as resolved ("claude-sonnet-4") or as given (fallbacks). */
  readonly model: string;
  /** The exact tokenizer the estimate is computed from. */
  readonly base: ExactTokenizer;
  /** Expected provider tokens per base token. */
  readonly factor: number;
  /** Headroom on top of the factor, e.g. 0.1 for 10%. */
  readonly safetyMargin: number;
  /**
   * A new tokenizer whose factor has learnt from one request's usage (this one is unchanged).
   * Under-counting is corrected at once; over-counting by half the difference per call, so one odd
   * request cannot make counts drop below the provider's. Returns this same tokenizer when the
   * factor would move by less than 0.5%, so counts cached for it stay valid.
   *
   * @throws PluginOptionsError for counts that are not positive integers, or that imply a ratio to
   * the base encoding outside 0.25–4 (they cannot describe the same request).
   */
  calibrate(usage: TokenUsage): ApproximateTokenizer;
}

export interface ApproximateTokenizerSettings {
  readonly kind: ApproximateTokenizer["kind"];
  readonly model: string;
  readonly base: ExactTokenizer;
  readonly factor: number;
  readonly safetyMargin: number;
}

/** The range of provider-to-base ratios calibration accepts; real tokenizers are well inside it. */
export const FACTOR_RANGE = Object.freeze({ min: 0.25, max: 4 });
/** Over-counting is corrected by this fraction of the difference per calibration. */
const DOWNWARD_STEP = 0.5;
/** Smaller relative changes of the factor are ignored. */
const DEADBAND = 0.005;

function ceilScaled(count: number, multiplier: number): number {
  const scaled = count * multiplier;
  // 10 × 1.1 is 11.000000000000002 in floating point: do not let that become 12.
  return Math.ceil(scaled - scaled * 1e-12);
}

function formatFactor(factor: number): string {
  return String(Math.round(factor * 1000) / 1000);
}

function describe(settings: ApproximateTokenizerSettings): string {
  const factor = settings.factor === 1 ? "" : ` × ${formatFactor(settings.factor)}`;
  const margin = settings.safetyMargin === 0 ? "" : ` + ${formatFactor(settings.safetyMargin * 100)}%`;
  const kind = settings.kind === "fallback" ? "fallback" : "approximation";
  return `${settings.base.name}${factor}${margin} (${kind} for "${settings.model}")`;
}

function checkUsage(usage: unknown): TokenUsage {
  const problems: string[] = [];
  const record = typeof usage === "object" && usage !== null ? (usage as Record<string, unknown>) : undefined;
  if (record === undefined) throw new PluginOptionsError("calibrate()", `✖ expected { counted, reported }, got ${describeValue(usage)}`);
  for (const field of ["counted", "reported"] as const) {
    const value = record[field];
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
      problems.push(`✖ expected a positive whole number of tokens, got ${describeValue(value)}\n  → at ${field}`);
    }
  }
  if (problems.length > 0) throw new PluginOptionsError("calibrate()", problems.join("\n"));
  return { counted: record.counted as number, reported: record.reported as number };
}

export function createApproximateTokenizer(settings: ApproximateTokenizerSettings, cache = new BaseCountCache(settings.base)): ApproximateTokenizer {
  const multiplier = settings.factor * (1 + settings.safetyMargin);
  const tokenizer: ApproximateTokenizer = Object.freeze({
    specificationVersion: "v1",
    name: describe(settings),
    exact: false,
    kind: settings.kind,
    model: settings.model,
    base: settings.base,
    factor: settings.factor,
    safetyMargin: settings.safetyMargin,
    count(text: string): number {
      if (typeof text !== "string") {
        throw new CtxpipeError(ERROR_CODES.INPUT_INVALID, `${tokenizer.name}: count() takes a string, got ${describeValue(text)}`);
      }
      return ceilScaled(cache.count(text), multiplier);
    },
    calibrate(usage: TokenUsage): ApproximateTokenizer {
      const { counted, reported } = checkUsage(usage);
      // `counted` includes the margin; without it, it estimates the provider's count at the current factor.
      const observed = (settings.factor * reported * (1 + settings.safetyMargin)) / counted;
      if (observed < FACTOR_RANGE.min || observed > FACTOR_RANGE.max) {
        throw new PluginOptionsError(
          "calibrate()",
          `✖ ${reported} reported for ${counted} counted means ${formatFactor(observed)} provider tokens per ${settings.base.name} token, outside ${FACTOR_RANGE.min}–${FACTOR_RANGE.max}: ` +
            "pass the tokenCount of the build that produced the request and the input tokens the provider reported for that same request",
        );
      }
      const factor = observed > settings.factor ? observed : settings.factor + DOWNWARD_STEP * (observed - settings.factor);
      if (Math.abs(factor - settings.factor) <= DEADBAND * settings.factor) return tokenizer;
      return createApproximateTokenizer({ ...settings, factor }, cache);
    },
  });
  return tokenizer;
}
