// The ChatLoop every loop row sends with: a scripted model that answers at once with a short text (no
// model time), the loops' default pipeline (system prompt plugins, the default compression chain with
// its notice), exact gpt-4o counts.
import type { Tokenizer } from "@ctxpipe/core";
import type { ConversationStore } from "@ctxpipe/store";
// @ctxpipe/loop by path, as the PostgreSQL fixture is: the bench's own dependencies do not list it.
import { type ChatLoopOptions, scriptedModel } from "../../packages/loop/src/index.js";
import { AGENT_SYSTEM_PROMPT } from "./agent-system-prompt.js";

export const BENCH_ANSWER = "Done: the cache key now includes the lockfile hash.";

/**
 * Without `budget`, the model is gpt-4o and the loop counts for it as users run it: exact o200k counts
 * and gpt-4o's budget (its 128,000-token window, its output limit reserved). With one, the model has
 * no name (so no registry budget) and builds count with `budget.tokenizer` within `budget.maxTokens`.
 */
export function benchLoopOptions(store: ConversationStore | undefined, budget?: { readonly maxTokens: number; readonly tokenizer: Tokenizer }): ChatLoopOptions {
  const answer = () => ({ text: BENCH_ANSWER });
  const stored = store === undefined ? {} : { store };
  if (budget === undefined) return { model: scriptedModel([answer], { model: "gpt-4o", repeatLast: true }), ...stored, buildOptions: { system: AGENT_SYSTEM_PROMPT } };
  return {
    model: scriptedModel([answer], { repeatLast: true }),
    ...stored,
    buildOptions: { system: AGENT_SYSTEM_PROMPT, model: "gpt-4o", tokenizer: budget.tokenizer, maxTokens: budget.maxTokens },
  };
}
