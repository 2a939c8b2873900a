// The rule table of OpenAI's Responses API: the common rules, then the RSP-* rules of
// reference/providers.md §2 (RSP-001…008) with the ones found since (RSP-009…024), grouped by what they
// look at: the input list, calls and outputs, text, reasoning, item ids, the request's own fields.
// Plain data: the renderer plugin runs it on every request it renders, and
// checkRules(openAIResponsesRules, request) checks one made by hand.
import { commonRequestRules, type Rule } from "@ctxpipe/core";
import {
  callIdsUnique,
  callIdsWithinLimit,
  callNamesMatchPattern,
  callNamesWithinLimit,
  callsHaveOutputs,
  noMessageBetweenCallAndOutput,
  outputsAnswerEarlierCalls,
} from "./openai-responses-call-rules.js";
import { noBlankMessagesOrOutputs, stringsWithinLimit } from "./openai-responses-content-rules.js";
import { idsHaveTheirTypePrefix, idsMatchPattern, idsWithinLimit, inputNotEmpty, inputWellFormed } from "./openai-responses-item-rules.js";
import { itemsWithIdsKeepTheirReasoning, reasoningFollowedByItsItem, storelessReasoningEncrypted } from "./openai-responses-reasoning-rules.js";
import {
  instructionsNotBlank,
  maxOutputTokensAtLeast16,
  namesPortableLength,
  promptCacheKeyWithinLimit,
  toolNamesUnique,
  toolsWellFormed,
} from "./openai-responses-request-rules.js";

export const openAIResponsesRules: ReadonlyArray<Rule<unknown>> = [
  ...commonRequestRules,
  inputWellFormed, // RSP-010
  inputNotEmpty, // RSP-011
  outputsAnswerEarlierCalls, // RSP-001
  callsHaveOutputs, // RSP-002
  callIdsUnique, // RSP-003
  noMessageBetweenCallAndOutput, // RSP-004
  callIdsWithinLimit, // RSP-015
  callNamesMatchPattern, // RSP-016
  callNamesWithinLimit, // RSP-017
  stringsWithinLimit, // RSP-005
  noBlankMessagesOrOutputs, // RSP-006
  reasoningFollowedByItsItem, // RSP-008
  itemsWithIdsKeepTheirReasoning, // RSP-009
  storelessReasoningEncrypted, // RSP-023
  idsHaveTheirTypePrefix, // RSP-012
  idsWithinLimit, // RSP-013
  idsMatchPattern, // RSP-014
  toolsWellFormed, // RSP-018
  namesPortableLength, // RSP-019
  toolNamesUnique, // RSP-020
  maxOutputTokensAtLeast16, // RSP-021
  instructionsNotBlank, // RSP-022
  promptCacheKeyWithinLimit, // RSP-024
];
