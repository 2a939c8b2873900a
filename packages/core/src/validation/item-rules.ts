// Rules over the item list, checked before any renderer runs: seed 004's checks (not empty, no tool
// message first, no orphans) and the portable subset of reference/providers.md §6, which every
// provider's rules then confirm on the rendered request. Each names the provider error it prevents.
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

export const itemRules: ReadonlyArray<Rule<Items>> = [
  {
    id: "NOT_EMPTY",
    level: "error",
    requires: "there is something to send besides system messages (seed 004)",
    providerError: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    check(items, report) {
      if (items.some(isTurn)) return;
      report({ message: items.length === 0 ? "there is nothing to send" : "there is nothing to send besides system messages" });
    },
  },
  {
    id: "STARTS_WITH_TOOL_RESULT",
    level: "error",
    requires: "the conversation does not start with a tool result (seed 004)",
    providerError: "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks",
    check(items, report) {
      const first = items.findIndex(isTurn);
      if (first !== -1 && items[first]!.type === "tool-result") report({ message: "the conversation starts with a tool result", ...at(items[first]!, first) });
    },
  },
  {
    id: "TOOL_RESULT_WITHOUT_CALL",
    level: "error",
    requires: "every tool result directly follows the assistant message that made its call (seed 004)",
    providerError: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    check(items, report) {
      walkPairs(items, {
        result(item, position, open) {
          if (open === undefined || !open.calls.has(item.callId)) {
            report({ message: `result of call "${item.callId}" does not follow the assistant message that made the call`, ...at(item, position) });
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
          for (const callId of unanswered) report({ message: `call "${callId}" is not answered by a tool result right after it`, ...at(assistant, position) });
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
          if (open?.answered.has(item.callId)) report({ message: `call "${item.callId}" is answered twice`, ...at(item, position) });
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
          if (seen.has(call.id)) report({ message: `call id "${call.id}" is used by an earlier call too`, ...at(item, position) });
          seen.add(call.id);
        }
      });
    },
  },
  {
    id: "INVALID_CALL_ID",
    level: "error",
    requires: "tool-call ids are 1 to 40 letters, digits, '_' or '-'",
    providerError: "Invalid 'messages[10].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 53 instead.",
    check(items, report) {
      items.forEach((item, position) => {
        if (item.type !== "assistant") return;
        for (const call of item.toolCalls) {
          if (!CALL_ID_PATTERN.test(call.id)) report({ message: `call id "${call.id}" is not 1 to 40 letters, digits, '_' or '-'`, ...at(item, position) });
        }
      });
    },
  },
  {
    id: "INVALID_TOOL_NAME",
    level: "error",
    requires: "tool names start with a letter or '_' and are at most 64 letters, digits, '_' or '-'",
    providerError: "Invalid 'messages[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    check(items, report) {
      items.forEach((item, position) => {
        if (item.type !== "assistant") return;
        for (const call of item.toolCalls) {
          if (!TOOL_NAME_PATTERN.test(call.name)) report({ message: `tool name "${call.name}" of call "${call.id}" is not portable`, ...at(item, position) });
        }
      });
    },
  },
  {
    id: "ARGUMENTS_NOT_OBJECT",
    level: "strict",
    requires: "tool-call arguments are JSON text of an object, which Anthropic's input and Gemini's args must be",
    check(items, report) {
      items.forEach((item, position) => {
        if (item.type !== "assistant") return;
        for (const call of item.toolCalls) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(call.arguments);
          } catch {
            parsed = undefined;
          }
          if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
            report({ message: `arguments of call "${call.id}" are not a JSON object`, ...at(item, position) });
          }
        }
      });
    },
  },
  {
    id: "BLANK_TEXT",
    level: "error",
    requires: "no message is empty, whitespace or invisible characters only (a user message may be attachments only, a call-making one calls only)",
    providerError: "messages: text content blocks must be non-empty",
    check(items, report) {
      items.forEach((item, position) => {
        if (item.type === "tool-result") {
          if (isBlank(item.output)) report({ message: "the tool result's output is blank", ...at(item, position) });
          return;
        }
        if (!("text" in item) || !isBlank(item.text)) return;
        if (item.type === "user" && item.attachments !== undefined && item.attachments.length > 0) return;
        if (item.type === "assistant" && item.toolCalls.length > 0) {
          if (item.text !== "") report({ message: "the text is invisible characters only; leave it empty", ...at(item, position) });
          return;
        }
        // Labelled items (subagents, todos, task outcomes) always render something.
        if (["user", "assistant", "system", "summary", "error", "user-intervention", "thinking"].includes(item.type)) {
          report({ message: `the ${item.type} item's text is blank`, ...at(item, position) });
        }
      });
    },
  },
  {
    id: "LONE_SURROGATE",
    level: "error",
    requires: "every string is well-formed UTF-16",
    providerError: "The request body is not valid JSON: no low surrogate in string: line 1 column 195621 (char 195620)",
    check(items, report) {
      items.forEach((item, position) => {
        eachString(item, (text, field) => {
          if (!text.isWellFormed()) report({ message: `${field} contains a lone surrogate`, ...at(item, position) });
        });
      });
    },
  },
  {
    id: "STRING_TOO_LONG",
    level: "error",
    requires: `no string is longer than ${PROVIDER_MAX_STRING_LENGTH} characters`,
    providerError: "Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760",
    check(items, report) {
      items.forEach((item, position) => {
        eachString(item, (text, field) => {
          if (text.length > PROVIDER_MAX_STRING_LENGTH) report({ message: `${field} is ${text.length} characters long`, ...at(item, position) });
        });
      });
    },
  },
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
