// How the trim drop-in and the agent middleware count and what budget they build with, resolved from a
// model name through the registry of @ctxpipe/tokenizers (exact offline counts for OpenAI models, a
// flagged approximation for Claude and Gemini) or from a budget given outright. An unknown model is
// an error naming the option to give, never a silent chars/4.
import type { Tokenizer } from "@ctxpipe/core";
import { type EncodingName, resolveModelBudget } from "@ctxpipe/tokenizers";

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

export function resolveCounting(fields: CountingFields, options: CountingOptions, modelName: string | undefined): Counting {
  const name = options.model ?? modelName;
  const field = options.model === undefined ? fields.modelSource : "model";
  const budget = resolveModelBudget(name, options, {
    owner: fields.owner,
    unknownModel: (model, close) =>
      `${fields.owner}: unknown model "${model}" (${field}): its tokenizer and context window are not known.${close} ` +
      `Give model: "<a known name>" to count it as that model, or maxTokens: <its context window> to count it with the o200k_base encoding (flagged inexact).`,
    noModel: `✖ no budget: ${fields.modelSource} has no model name to look up, and no maxTokens is given. Give model: "<a known name>" (exact counts and its context window) or maxTokens\n  → at model`,
  });
  return { ...budget, model: name };
}
