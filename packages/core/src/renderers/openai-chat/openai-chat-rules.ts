// The rule table of OpenAI Chat Completions (reference/providers.md §1), behind the rules every
// provider shares. The renderer checks each request it builds with it; checkRules() runs it on any
// request, including one built by hand.
import type { Rule } from "../../spec/rule.js";
import { commonRequestRules } from "../../validation/common-request-rules.js";
import {
  contentPartsAllowed,
  contentPresent,
  noBlankAssistantMessages,
  noBlankToolMessages,
  noBlankUserOrSystemMessages,
  nullContentForCallsOnly,
  stringsWithinLimit,
} from "./openai-chat-content-rules.js";
import { promptCacheKeyWithinLimit } from "./openai-chat-request-rules.js";
import { endsOnUserOrTool, hasUserMessage, knownRoles, messagesNotEmpty, noFunctionRole, noLeadingSystemForO1Mini } from "./openai-chat-sequence-rules.js";
import {
  argumentsAreJsonObjects,
  callIdsAtMost40,
  callIdsNotReused,
  callsAnsweredOnce,
  callsAnsweredRightAway,
  namesMatchPattern,
  noEmptyToolCalls,
  toolCallsWellFormed,
  toolMessagesAnswerPrecedingCalls,
} from "./openai-chat-tool-call-rules.js";

/** In the order of providers.md. */
export const openAIChatRules: ReadonlyArray<Rule<unknown>> = [
  ...commonRequestRules,
  messagesNotEmpty, // OAI-001
  knownRoles, // OAI-002
  toolMessagesAnswerPrecedingCalls, // OAI-003
  callsAnsweredRightAway, // OAI-004
  callsAnsweredOnce, // OAI-005
  callIdsNotReused, // OAI-020
  noEmptyToolCalls, // OAI-006
  contentPresent, // OAI-007
  nullContentForCallsOnly, // OAI-021
  namesMatchPattern, // OAI-008
  callIdsAtMost40, // OAI-009
  stringsWithinLimit, // OAI-010
  noBlankAssistantMessages, // OAI-011
  noBlankUserOrSystemMessages, // OAI-012
  noBlankToolMessages, // OAI-014
  noFunctionRole, // OAI-013
  toolCallsWellFormed, // OAI-015
  argumentsAreJsonObjects, // OAI-016
  endsOnUserOrTool, // OAI-017
  hasUserMessage, // OAI-018
  noLeadingSystemForO1Mini, // OAI-019
  contentPartsAllowed, // OAI-022
  promptCacheKeyWithinLimit, // OAI-023
];
