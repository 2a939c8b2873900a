// Starting points for approximations, before any calibration. They are priors, not measurements:
// Claude's tokenizer is not public, and published comparisons of Claude 3.5 Sonnet with GPT-4o on
// the same prompts found about 16% more tokens on English, 21% on math and 30% on code; Google
// describes a Gemini token as about 4 characters, close to o200k_base on English. Both lean high,
// because a count that is too low is the mistake that gets a request rejected.
import type { ModelProvider } from "../registry/model-info.js";

/** Provider tokens per o200k_base token assumed before any calibration. */
export const DEFAULT_FACTORS: Readonly<Record<Exclude<ModelProvider, "openai">, number>> = Object.freeze({
  anthropic: 1.2,
  google: 1.1,
});

/** Headroom added to every approximate count unless the caller sets `safetyMargin`. */
export const DEFAULT_SAFETY_MARGIN = 0.1;
