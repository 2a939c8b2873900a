// How a context counts for the model a step calls: the tokenizer and the budget, resolved from the
// model's id through the registry of @ctxpipe/tokenizers (the rule the loops and the CLI use), or from
// the options. An unknown model without a budget is an error, never a silent chars/4.
import { type ModelBudget, type ModelBudgetOptions, resolveModelBudget } from "@ctxpipe/tokenizers";

/** The tokenizer and budget of every build for one model; `model` is the registry's family name, or the id as given. */
export interface ModelCounting extends ModelBudget {
  readonly model: string;
}

/** The options that decide how a model is counted. */
export interface ModelCountingOptions extends ModelBudgetOptions {
  /** Count the model as this registry model (a gateway's alias). */
  readonly countAs?: string | undefined;
}

export const OWNER = "@ctxpipe/ai-sdk";

/**
 * The counting for a model id.
 *
 * @throws UnknownModelError for a model the registry does not know, without `maxTokens`.
 * @throws PluginOptionsError for a reserve that leaves the prompt no room.
 */
export function resolveModelCounting(modelId: string, options: ModelCountingOptions): ModelCounting {
  const name = options.countAs ?? modelId;
  const field = options.countAs === undefined ? "the model's modelId" : "countAs";
  const budget = resolveModelBudget(name, options, {
    owner: OWNER,
    unknownModel: (model, close) =>
      `${OWNER}: unknown model "${model}" (${field}): ctxpipe does not know its tokenizer or context window, so it cannot keep the prompt inside it.${close} ` +
      `Give maxTokens (the model's context window; counts then use the o200k_base encoding plus a 10% margin, flagged inexact), ` +
      `or countAs: "<a known model>" to count it as that model (e.g. for a gateway's alias).`,
    // A model id is always there: this is never said.
    noModel: "no model id",
  });
  return Object.freeze({ ...budget, model: budget.model ?? name.trim() });
}
