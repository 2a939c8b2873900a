// How the trim drop-in and the agent middleware count and what budget they build with, resolved from a
// model name through the registry of @ctxpipe/tokenizers (exact offline counts for OpenAI models, a
// flagged approximation for Claude and Gemini) or from a budget given outright. An unknown model is
// an error naming the option to give, never a silent chars/4.
import { type ModelBudget, type ModelBudgetOptions, resolveModelBudget } from "@ctxpipe/tokenizers";

export interface CountingOptions extends ModelBudgetOptions {
  /** Count as this registry model, e.g. "gpt-4o" or "claude-sonnet-4-5". */
  readonly model?: string | undefined;
}

/** What a build counts with; `model` is the name as given (or the agent's), when there is one. */
export type Counting = ModelBudget;

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
