// OpenAI Chat Completions rules on tool calls and the tool messages that answer them
// (reference/providers.md §1: OAI-003, 004, 005, 020, 006, 008, 009, 015, 016).
import type { Rule } from "../../spec/rule.js";
import { at, describeValue, isRecord, type MessageView, messageViewsOf, toolRunAfter } from "./openai-chat-message-view.js";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_CALL_ID_LENGTH = 40;

const NO_FUNCTION_CALLS: ReadonlyArray<FunctionCall> = [];

interface FunctionCall {
  readonly position: number;
  readonly function: Readonly<Record<string, unknown>>;
}

/**
 * The calls of a message whose function is an object: the ones with a name and arguments to check.
 * Two rules ask this of every message on every check, and most messages make no call: nothing is
 * made for those.
 */
function functionCalls(message: MessageView): ReadonlyArray<FunctionCall> {
  if (message.calls.length === 0) return NO_FUNCTION_CALLS;
  const found: FunctionCall[] = [];
  for (const call of message.calls) if (isRecord(call.fields.function)) found.push({ position: call.position, function: call.fields.function });
  return found;
}

export const toolMessagesAnswerPrecedingCalls: Rule<unknown> = {
  id: "OAI-003",
  level: "error",
  requires: "a tool message follows the assistant message with tool_calls it answers (or other tool messages answering it), and its tool_call_id is one of that message's ids",
  providerError: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
  check(request, report) {
    // The ids of the assistant message whose run of tool messages we are in, if any.
    let open: { index: number; ids: ReadonlySet<string> } | undefined;
    for (const message of messageViewsOf(request) ?? []) {
      if (message.role !== "tool") {
        open = message.role === "assistant" && message.makesCalls ? { index: message.index, ids: new Set(message.calls.flatMap((call) => call.id ?? [])) } : undefined;
        continue;
      }
      const id = message.fields.tool_call_id;
      if (open === undefined) report({ message: "the tool message does not follow an assistant message with tool_calls", ...at(message, ".role") });
      else if (typeof id !== "string") report({ message: `tool_call_id is ${describeValue(id)}, not a string`, ...at(message, ".tool_call_id") });
      else if (!open.ids.has(id)) report({ message: `'tool_call_id' of '${id}' not found in 'tool_calls' of messages[${open.index}]`, ...at(message, ".tool_call_id") });
    }
  },
};

export const callsAnsweredRightAway: Rule<unknown> = {
  id: "OAI-004",
  level: "error",
  requires: "every tool_calls[].id is answered by the tool messages straight after its assistant message, before any other message",
  providerError:
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_…",
  check(request, report) {
    const messages = messageViewsOf(request) ?? [];
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      const answered = new Set(toolRunAfter(messages, message).map((tool) => tool.fields.tool_call_id));
      for (const call of message.calls) {
        if (call.id !== undefined && !answered.has(call.id)) {
          report({ message: `tool call '${call.id}' has no tool message answering it right after messages[${message.index}]`, ...at(message, `.tool_calls[${call.position}].id`) });
        }
      }
    }
  },
};

export const callsAnsweredOnce: Rule<unknown> = {
  id: "OAI-005",
  level: "error",
  requires: "no id repeats inside one assistant message's tool_calls, and no tool_call_id is answered twice",
  providerError: "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_gmd4…', in messages[7] and messages[8].",
  check(request, report) {
    const messages = messageViewsOf(request) ?? [];
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      const seen = new Set<string>();
      for (const call of message.calls) {
        if (call.id === undefined) continue;
        if (seen.has(call.id)) report({ message: `tool call id '${call.id}' appears twice in this message`, ...at(message, `.tool_calls[${call.position}].id`) });
        seen.add(call.id);
      }
      // Answered twice within the run that answers this message; a tool message outside any run is OAI-003's.
      const answeredAt = new Map<unknown, number>();
      for (const tool of toolRunAfter(messages, message)) {
        const id = tool.fields.tool_call_id;
        const first = answeredAt.get(id);
        if (first !== undefined && typeof id === "string") report({ message: `'tool_call_id' of '${id}' is answered twice, in messages[${first}] and messages[${tool.index}]`, ...at(tool, ".tool_call_id") });
        if (first === undefined) answeredAt.set(id, tool.index);
      }
    }
  },
};

const NO_IDS: ReadonlyMap<string, number> = new Map();

/**
 * OAI-020's check. `before` holds, for a request checked from a later message on, the id of every call
 * in the messages before it with the index of the first message that used it.
 */
export function reportReusedCallIds(request: unknown, report: Parameters<Rule<unknown>["check"]>[1], before: ReadonlyMap<string, number> = NO_IDS): void {
  const firstAt = new Map<string, number>();
  for (const message of messageViewsOf(request) ?? []) {
    if (message.role !== "assistant") continue;
    // A repeat inside one message is OAI-005's.
    const here = new Set<string>();
    for (const call of message.calls) {
      if (call.id === undefined || here.has(call.id)) continue;
      here.add(call.id);
      const first = before.get(call.id) ?? firstAt.get(call.id);
      if (first === undefined) firstAt.set(call.id, message.index);
      else report({ message: `tool call id '${call.id}' was already used in messages[${first}]`, ...at(message, `.tool_calls[${call.position}].id`) });
    }
  }
}

export const callIdsNotReused: Rule<unknown> = {
  id: "OAI-020",
  level: "strict",
  requires: "a tool call id is not reused by a later assistant message",
  check(request, report) {
    reportReusedCallIds(request, report);
  },
};

export const noEmptyToolCalls: Rule<unknown> = {
  id: "OAI-006",
  level: "error",
  requires: "tool_calls is left out rather than sent as an empty array",
  providerError: "Invalid 'messages[1].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      const toolCalls = message.fields.tool_calls;
      if (Array.isArray(toolCalls) && toolCalls.length === 0) report({ message: "tool_calls is an empty array; leave the field out", ...at(message, ".tool_calls") });
    }
  },
};

export const namesMatchPattern: Rule<unknown> = {
  id: "OAI-008",
  level: "error",
  requires: "a message's name and every tool_calls[].function.name match ^[a-zA-Z0-9_-]+$, at most 64 characters",
  providerError: "Invalid 'messages[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      const name = message.fields.name;
      if (name !== undefined && (typeof name !== "string" || !NAME.test(name))) {
        report({ message: `the name is ${describeValue(name)}; it must be 1 to 64 letters, digits, '_' or '-'`, ...at(message, ".name") });
      }
      for (const call of functionCalls(message)) {
        const callName = call.function.name;
        if (typeof callName !== "string" || !NAME.test(callName)) {
          report({ message: `the function name is ${describeValue(callName)}; it must be 1 to 64 letters, digits, '_' or '-'`, ...at(message, `.tool_calls[${call.position}].function.name`) });
        }
      }
    }
  },
};

export const callIdsAtMost40: Rule<unknown> = {
  id: "OAI-009",
  level: "error",
  requires: "every tool_calls[].id is a non-empty string of at most 40 characters",
  providerError:
    "Invalid 'messages[10].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 53 instead.",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const call of message.calls) {
        const where = at(message, `.tool_calls[${call.position}].id`);
        if (call.id === undefined || call.id.length === 0) report({ message: `the tool call id is ${describeValue(call.fields.id)}`, ...where });
        else if (call.id.length > MAX_CALL_ID_LENGTH) report({ message: `the tool call id is ${call.id.length} characters long; at most ${MAX_CALL_ID_LENGTH} are allowed`, ...where });
      }
    }
  },
};

export const toolCallsWellFormed: Rule<unknown> = {
  id: "OAI-015",
  level: "error",
  requires: "tool_calls is an array of { type: 'function', function: { name, arguments: string } } (or type 'custom' with a string input)",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      const toolCalls = message.fields.tool_calls;
      if (toolCalls === undefined || toolCalls === null) continue;
      if (!Array.isArray(toolCalls)) {
        report({ message: `tool_calls is ${describeValue(toolCalls)}, not an array`, ...at(message, ".tool_calls") });
        continue;
      }
      (toolCalls as unknown[]).forEach((call, position) => {
        const where = (suffix: string) => at(message, `.tool_calls[${position}]${suffix}`);
        if (!isRecord(call)) report({ message: `the tool call is ${describeValue(call)}, not an object`, ...where("") });
        else if (call.type === "function") {
          if (!isRecord(call.function) || typeof call.function.arguments !== "string") report({ message: "function.arguments must be a string (JSON text)", ...where(".function.arguments") });
        } else if (call.type === "custom") {
          if (!isRecord(call.custom) || typeof call.custom.input !== "string") report({ message: "custom.input must be a string", ...where(".custom.input") });
        } else report({ message: `type is ${describeValue(call.type)}; it must be 'function' or 'custom'`, ...where(".type") });
      });
    }
  },
};

export const argumentsAreJsonObjects: Rule<unknown> = {
  id: "OAI-016",
  level: "strict",
  requires: "every function.arguments is the JSON text of an object",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      for (const call of functionCalls(message)) {
        const text = call.function.arguments;
        if (typeof text !== "string") continue;
        if (!argumentsAreObject(call.function, text)) report({ message: "the arguments are not the JSON text of an object, so Anthropic's input or Gemini's args cannot be built from them", ...at(message, `.tool_calls[${call.position}].function.arguments`) });
      }
    }
  },
};

// Parsing every call's arguments on every check is most of what an agent loop's rebuild spends
// here; the answer is kept for frozen call objects, which cannot change.
const objectArguments = new WeakMap<object, boolean>();

function argumentsAreObject(owner: object, text: string): boolean {
  const known = objectArguments.get(owner);
  if (known !== undefined) return known;
  const answer = isRecord(parseJson(text));
  if (Object.isFrozen(owner)) objectArguments.set(owner, answer);
  return answer;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
