// The rule table of the Gemini renderer: the rules every provider shares, then every GEM-* rule of
// reference/providers.md §4 in its order, then the context caching rule GEM-022. Plain data, so users can run it on any request with checkRules.
import { commonRequestRules, type Rule } from "@ctxpipe/core";
import { geminiCacheRules } from "./gemini-cache-rules.js";
import { geminiContentRules } from "./gemini-content-rules.js";
import { geminiFunctionRules } from "./gemini-function-rules.js";
import { geminiTurnRules } from "./gemini-turn-rules.js";

export const geminiRules: ReadonlyArray<Rule<unknown>> = [...commonRequestRules, ...geminiContentRules, ...geminiFunctionRules, ...geminiTurnRules, ...geminiCacheRules];
