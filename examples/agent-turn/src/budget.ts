// src/budget.ts
import { resolveModel } from "@ctxpipe/tokenizers";

/** Tokens kept free for the model's reply: the request must fit in the window without them. */
export const REPLY_TOKENS = 2_048;

export interface Budget {
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
}

/**
 * The build's budget for a model, from the registry: its window holds the request and the reply, so the
 * reply's tokens are reserved out of it. `contextLimit` caps the window lower, to bound what one call costs.
 */
export function budgetFor(model: string, reserveOutputTokens: number, contextLimit = Number.POSITIVE_INFINITY): Budget {
  const { contextWindow, maxInputTokens, maxOutputTokens } = resolveModel(model); // gpt-4o: 128,000 and 16,384
  const reserve = Math.min(reserveOutputTokens, maxOutputTokens);
  return { maxTokens: Math.min(contextWindow, maxInputTokens + reserve, contextLimit), reserveOutputTokens: reserve };
}
