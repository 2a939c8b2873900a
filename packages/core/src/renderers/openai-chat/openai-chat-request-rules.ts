// The prompt_cache_key limit both OpenAI formats enforce (OAI-023 for Chat Completions, RSP-024 for the
// Responses API): one rule, made under each table's id.
import type { Rule } from "../../spec/rule.js";
import { MAX_PROMPT_CACHE_KEY_LENGTH } from "../../text/prompt-cache-key.js";
import { describeValue, isRecord } from "./openai-chat-message-view.js";

/** The rule that a request's prompt_cache_key, when sent, is a string of at most 64 characters, under `id`. */
export function promptCacheKeyRule(id: string): Rule<unknown> {
  return {
    id,
    level: "error",
    requires: `prompt_cache_key, when sent, is a string of at most ${MAX_PROMPT_CACHE_KEY_LENGTH} characters`,
    // The Responses API's answer; Chat Completions checks the same field with the same limit.
    providerError: "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a string with length 72 instead.",
    check(request, report) {
      if (!isRecord(request) || request.prompt_cache_key === undefined || request.prompt_cache_key === null) return;
      const key = request.prompt_cache_key;
      if (typeof key !== "string") report({ message: `prompt_cache_key is ${describeValue(key)}, not a string`, path: "prompt_cache_key" });
      else if (key.length > MAX_PROMPT_CACHE_KEY_LENGTH) report({ message: `prompt_cache_key is ${key.length} characters long; at most ${MAX_PROMPT_CACHE_KEY_LENGTH} are allowed`, path: "prompt_cache_key" });
    },
  };
}

export const promptCacheKeyWithinLimit: Rule<unknown> = promptCacheKeyRule("OAI-023");
