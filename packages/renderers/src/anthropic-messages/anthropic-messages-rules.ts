// The rule table of the Anthropic Messages API: the common rules, then every ANT-* rule of
// reference/providers.md §3 in the order it lists them, with the cache rules ANT-027 and ANT-028
// after ANT-013 and ANT-021. Plain data: the renderer plugin runs it on every request it renders,
// and checkRules(anthropicMessagesRules, request) checks one made by hand.
import { commonRequestRules, type Rule } from "@ctxpipe/core";
import { cacheBreakpointsLongEnough, cacheTtlsLongestFirst } from "./anthropic-cache-rules.js";
import { atMostFourCacheBreakpoints, contentNotEmpty, finalAssistantNoTrailingWhitespace, noCacheControlOnEmptyText, textNotBlank } from "./anthropic-content-rules.js";
import {
  atMostMaxMessages,
  endsOnUser,
  messagesNotEmpty,
  noEmptySystemPrompt,
  rolesAlternate,
  startsWithUser,
  systemIsTextOrTextBlocks,
  userAndAssistantRolesOnly,
} from "./anthropic-sequence-rules.js";
import { thinkingNotLast, thinkingOnlyInAssistant, thinkingOpensTurn, thinkingSigned } from "./anthropic-thinking-rules.js";
import {
  toolBlocksInTheirRole,
  toolIdsMatchPattern,
  toolInputIsObject,
  toolNamesMatchPattern,
  toolResultsFirst,
  toolResultsHaveContent,
  toolResultsMatchPreviousTurn,
  toolUseIdsUnique,
  toolUsesAnswered,
} from "./anthropic-tool-rules.js";

export const anthropicMessagesRules: ReadonlyArray<Rule<unknown>> = [
  ...commonRequestRules,
  messagesNotEmpty, // ANT-001
  atMostMaxMessages, // ANT-018
  userAndAssistantRolesOnly, // ANT-002
  systemIsTextOrTextBlocks, // ANT-025
  noEmptySystemPrompt, // ANT-003
  startsWithUser, // ANT-004
  rolesAlternate, // ANT-005
  toolUsesAnswered, // ANT-006
  toolResultsMatchPreviousTurn, // ANT-007
  toolResultsFirst, // ANT-008
  toolUseIdsUnique, // ANT-009
  toolIdsMatchPattern, // ANT-010
  toolNamesMatchPattern, // ANT-026
  contentNotEmpty, // ANT-011
  textNotBlank, // ANT-012
  atMostFourCacheBreakpoints, // ANT-013
  noCacheControlOnEmptyText, // ANT-021
  cacheTtlsLongestFirst, // ANT-027
  cacheBreakpointsLongEnough, // ANT-028
  thinkingOpensTurn, // ANT-014
  thinkingSigned, // ANT-022
  thinkingNotLast, // ANT-023
  thinkingOnlyInAssistant, // ANT-024
  endsOnUser, // ANT-015
  finalAssistantNoTrailingWhitespace, // ANT-016
  toolResultsHaveContent, // ANT-017
  toolBlocksInTheirRole, // ANT-019
  toolInputIsObject, // ANT-020
];
