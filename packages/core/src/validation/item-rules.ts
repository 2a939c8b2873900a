// Rules over the item list, checked before any renderer runs: the message builder's checks (not
// empty, no tool message first, no orphans) and the portable subset of reference/providers.md §6,
// which every provider's rules then confirm on the rendered request. Each names the provider error it
// prevents.
import { isBlank } from "../model/is-blank.js";
import type { Item } from "../model/item.js";
import type { Rule } from "../spec/rule.js";
import { CALL_ID_PATTERN, PROVIDER_MAX_STRING_LENGTH, TOOL_NAME_PATTERN } from "./portable-limits.js";

type Items = ReadonlyArray<Item>;

/** Items that are turns of the conversation: not system-role, not the assistant's private thinking. */
const isTurn = (item: Item) => item.role !== "system" && item.type !== "thinking";

const at = (item: Item, position: number) => ({ itemId: item.id, position });

/** Walks calls and results: for each result, the open call block it answers, if any. */
function walkPairs(
  items: Items,
  on: {
    result?(item: Extract<Item, { type: "tool-result" }>, position: number, open: { calls: Set<string>; answered: Set<string> } | undefined): void;
    closed?(assistant: Item, position: number, unanswered: string[]): void;
  },
): void {
  let open: { calls: Set<string>; answered: Set<string>; position: number } | undefined;
  const close = () => {
    if (open === undefined) return;
    const unanswered = [...open.calls].filter((id) => !open!.answered.has(id));
    on.closed?.(items[open.position]!, open.position, unanswered);
    open = undefined;
  };
  items.forEach((item, position) => {
    if (item.type === "tool-result") {
      on.result?.(item, position, open);
      if (open?.calls.has(item.callId)) open.answered.add(item.callId);
      return;
    }
    // Thinking is the assistant's own reasoning, not a message: it does not separate a call from its results.
    if (item.type === "thinking") return;
    close();
    if (item.type === "assistant" && item.toolCalls.length > 0) {
      open = { calls: new Set(item.toolCalls.map((call) => call.id)), answered: new Set(), position };
    }
  });
  close();
}

function eachString(item: Item, visit: (text: string, field: string) => void): void {
  if ("text" in item) visit(item.text, "text");
  if (item.type === "tool-result") visit(item.output, "output");
  if (item.type === "assistant") {
    item.toolCalls.forEach((call, index) => {
      visit(call.arguments, `toolCalls[${index}].arguments`);
      visit(call.name, `toolCalls[${index}].name`);
      visit(call.id, `toolCalls[${index}].id`);
    });
    item.reasoning?.forEach((entry, index) => {
      visit(entry.text, `reasoning[${index}].text`);
    });
  }
}

/**
 * A rule about each item on its own. Items are immutable, so what an item breaks is worked out once
 * per item object: a rebuild after one new message inspects only that message.
 */
function perItem(rule: Omit<Rule<Items>, "check"> & { inspect(item: Item): string[] }): Rule<Items> {
  const found = new WeakMap<Item, string[]>();
  const { inspect, ...described } = rule;
  return {
    ...described,
    check(items, report) {
      items.forEach((item, position) => {
        let messages = found.get(item);
        if (messages === undefined) {
          messages = inspect(item);
          found.set(item, messages);
        }
        for (const message of messages) report({ message, ...at(item, position) });
      });
    },
  };
}

/** Texts of the pairing rules' violations, shared with ItemRuleChecker, which finds the same ones. */
export const PAIRING_MESSAGES = {
  resultWithoutCall: (callId: string) => `result of call "${callId}" does not follow the assistant message that made the call`,
  callWithoutResult: (callId: string) => `call "${callId}" is not answered by a tool result right after it`,
  answeredTwice: (callId: string) => `call "${callId}" is answered twice`,
  callIdReused: (callId: string) => `call id "${callId}" is used by an earlier call too`,
} as const;

const callsOf = (item: Item) => (item.type === "assistant" ? item.toolCalls : []);

function isJsonObjectText(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** Item types whose text is all they send; labelled ones (subagents, todos, task outcomes) always send a label. */
const TEXT_ONLY: ReadonlySet<Item["type"]> = new Set(["user", "assistant", "system", "summary", "error", "user-intervention", "thinking"]);

function blankness(item: Item): string[] {
  if (item.type === "tool-result") return isBlank(item.output) ? ["the tool result's output is blank"] : [];
  if (!("text" in item) || !isBlank(item.text)) return [];
  if (item.type === "user" && item.attachments !== undefined && item.attachments.length > 0) return [];
  if (item.type === "assistant" && item.toolCalls.length > 0) return item.text === "" ? [] : ["the text is invisible characters only; leave it empty"];
  return TEXT_ONLY.has(item.type) ? [`the ${item.type} item's text is blank`] : [];
}

function stringsOf(item: Item): Array<[string, string]> {
  const strings: Array<[string, string]> = [];
  eachString(item, (text, field) => strings.push([text, field]));
  return strings;
}

export const itemRules: ReadonlyArray<Rule<Items>> = [
  {
    id: "NOT_EMPTY",
    level: "error",
    requires: "there is something to send besides system messages (the message builder's validation step)",
    providerError: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    check(items, report) {
      if (items.some(isTurn)) return;
      report({ message: items.length === 0 ? "there is nothing to send" : "there is nothing to send besides system messages" });
    },
  },
  {
    id: "STARTS_WITH_TOOL_RESULT",
    level: "error",
    requires: "the conversation does not start with a tool result (the message builder's validation step)",
    providerError: "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks",
    check(items, report) {
      const first = items.findIndex(isTurn);
      if (first !== -1 && items[first]!.type === "tool-result") report({ message: "the conversation starts with a tool result", ...at(items[first]!, first) });
    },
  },
  {
    id: "TOOL_RESULT_WITHOUT_CALL",
    level: "error",
    requires: "every tool result directly follows the assistant message that made its call (the message builder's validation step)",
    providerError: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    check(items, report) {
      walkPairs(items, {
        result(item, position, open) {
          if (open === undefined || !open.calls.has(item.callId)) {
            report({ message: PAIRING_MESSAGES.resultWithoutCall(item.callId), ...at(item, position) });
          }
        },
      });
    },
  },
  {
    id: "TOOL_CALL_WITHOUT_RESULT",
    level: "error",
    requires: "every tool call is answered by a result right after the message that made it",
    providerError:
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_…",
    check(items, report) {
      walkPairs(items, {
        closed(assistant, position, unanswered) {
          for (const callId of unanswered) report({ message: PAIRING_MESSAGES.callWithoutResult(callId), ...at(assistant, position) });
        },
      });
    },
  },
  {
    id: "DUPLICATE_TOOL_RESULT",
    level: "error",
    requires: "no call is answered twice",
    providerError: "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_…', in messages[7] and messages[8].",
    check(items, report) {
      walkPairs(items, {
        result(item, position, open) {
          if (open?.answered.has(item.callId)) report({ message: PAIRING_MESSAGES.answeredTwice(item.callId), ...at(item, position) });
        },
      });
    },
  },
  {
    id: "DUPLICATE_CALL_ID",
    level: "error",
    requires: "tool-call ids are unique across the request",
    providerError: "messages.43.content.2: `tool_use` ids must be unique",
    check(items, report) {
      const seen = new Set<string>();
      items.forEach((item, position) => {
        if (item.type !== "assistant") return;
        for (const call of item.toolCalls) {
          if (seen.has(call.id)) report({ message: PAIRING_MESSAGES.callIdReused(call.id), ...at(item, position) });
          seen.add(call.id);
        }
      });
    },
  },
  perItem({
    id: "INVALID_CALL_ID",
    level: "error",
    requires: "tool-call ids are 1 to 40 letters, digits, '_' or '-'",
    providerError: "Invalid 'messages[10].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 53 instead.",
    inspect: (item) => callsOf(item).flatMap((call) => (CALL_ID_PATTERN.test(call.id) ? [] : [`call id "${call.id}" is not 1 to 40 letters, digits, '_' or '-'`])),
  }),
  perItem({
    id: "INVALID_TOOL_NAME",
    level: "error",
    requires: "tool names start with a letter or '_' and are at most 64 letters, digits, '_' or '-'",
    providerError: "Invalid 'messages[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    inspect: (item) => callsOf(item).flatMap((call) => (TOOL_NAME_PATTERN.test(call.name) ? [] : [`tool name "${call.name}" of call "${call.id}" is not portable`])),
  }),
  perItem({
    id: "ARGUMENTS_NOT_OBJECT",
    level: "strict",
    requires: "tool-call arguments are JSON text of an object, which Anthropic's input and Gemini's args must be",
    inspect: (item) => callsOf(item).flatMap((call) => (isJsonObjectText(call.arguments) ? [] : [`arguments of call "${call.id}" are not a JSON object`])),
  }),
  perItem({
    id: "BLANK_TEXT",
    level: "error",
    requires: "no message is empty, whitespace or invisible characters only (a user message may be attachments only, a call-making one calls only)",
    providerError: "messages: text content blocks must be non-empty",
    inspect: blankness,
  }),
  perItem({
    id: "LONE_SURROGATE",
    level: "error",
    requires: "every string is well-formed UTF-16",
    providerError: "The request body is not valid JSON: no low surrogate in string: line 1 column 195621 (char 195620)",
    inspect: (item) => stringsOf(item).flatMap(([text, field]) => (text.isWellFormed() ? [] : [`${field} contains a lone surrogate`])),
  }),
  perItem({
    id: "STRING_TOO_LONG",
    level: "error",
    requires: `no string is longer than ${PROVIDER_MAX_STRING_LENGTH} characters`,
    providerError: "Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760",
    inspect: (item) => stringsOf(item).flatMap(([text, field]) => (text.length > PROVIDER_MAX_STRING_LENGTH ? [`${field} is ${text.length} characters long`] : [])),
  }),
  {
    id: "STARTS_WITH_ASSISTANT",
    level: "strict",
    requires: "the first turn is the user's",
    providerError: "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
    check(items, report) {
      const first = items.findIndex(isTurn);
      if (first !== -1 && items[first]!.role === "assistant") report({ message: `the conversation starts with ${items[first]!.type}`, ...at(items[first]!, first) });
    },
  },
  {
    id: "ENDS_WITH_ASSISTANT",
    level: "strict",
    requires: "the last turn is the user's or a tool result (newer models reject assistant prefill)",
    providerError: "This model does not support assistant message prefill. The conversation must end with a user message.",
    check(items, report) {
      let last = items.length - 1;
      while (last >= 0 && !isTurn(items[last]!)) last--;
      if (last !== -1 && items[last]!.role === "assistant") report({ message: `the conversation ends with ${items[last]!.type}`, ...at(items[last]!, last) });
    },
  },
];
