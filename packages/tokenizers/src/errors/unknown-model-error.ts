// Raised when a model name is not in the registry and the caller gave no fallback encoding: ctxpipe
// does not guess a tokenizer from a name, because a wrong guess under-counts silently.
import { CtxpipeError, ERROR_CODES } from "@ctxpipe/core";

/** A model name the registry does not know, with no fallback encoding given. Code `MODEL_UNKNOWN`. */
export class UnknownModelError extends CtxpipeError {
  /** The name as the caller gave it. */
  readonly model: string;
  /** Known model names close to it, closest first (may be empty). */
  readonly suggestions: ReadonlyArray<string>;

  constructor(model: string, suggestions: ReadonlyArray<string>) {
    const close = suggestions.length === 0 ? "" : ` Close known names: ${suggestions.join(", ")}.`;
    super(
      ERROR_CODES.MODEL_UNKNOWN,
      `Unknown model "${model}": @ctxpipe/tokenizers does not know its tokenizer or context window.${close} ` +
        'Pass a known model name, or a fallback encoding (createTokenizer(model, { fallback: "o200k_base" }), or the same option of TokenizerPlugin) to count with it; those counts are flagged inexact.',
    );
    this.name = "UnknownModelError";
    this.model = model;
    this.suggestions = suggestions;
  }
}
