// The rule table of OpenAI's Responses API. Plain data: the renderer plugin runs it on every request it
// renders, and checkRules(openAIResponsesRules, request) checks one made by hand.
import { commonRequestRules, type Rule } from "@ctxpipe/core";

export const openAIResponsesRules: ReadonlyArray<Rule<unknown>> = [...commonRequestRules];
