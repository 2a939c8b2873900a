// The rule table of an AI SDK request ({ system, messages }): the common rules, then what the AI SDK
// itself refuses before calling a provider (its own error texts quoted), then what the providers
// behind it refuse for a message list they all share (tool pairing, ids, empty text). Plain data:
// the renderer plugin runs it on every request it renders, and checkRules(aiSdkRules, request)
// checks one made by hand.
import { commonRequestRules, isBlank, type Rule, type RuleViolationInput } from "@ctxpipe/core";
import { describeValue, isRecord } from "./read-model-content.js";

/** A part of a message; its path is built only when a violation asks for it. */
class PartView {
  readonly fields: Record<string, unknown>;
  readonly messageIndex: number;
  /** Position in the content array; undefined for string content. */
  readonly position: number | undefined;

  constructor(fields: Record<string, unknown>, messageIndex: number, position: number | undefined) {
    this.fields = fields;
    this.messageIndex = messageIndex;
    this.position = position;
  }

  get path(): string {
    return this.position === undefined ? `messages[${this.messageIndex}].content` : `messages[${this.messageIndex}].content[${this.position}]`;
  }
}

interface MessageView {
  readonly index: number;
  readonly message: unknown;
  readonly role: unknown;
  readonly content: unknown;
  readonly contentLength: number;
  readonly parts: ReadonlyArray<PartView>;
}

// Views are kept per message object and per messages array, and used again while what they were made
// from is unchanged: every rule reads the same request, and an agent's next request shares most of
// its messages with the last one (the renderer reuses them).
const messageViews = new WeakMap<object, MessageView>();
const listViews = new WeakMap<object, ReadonlyArray<MessageView>>();

const contentLengthOf = (content: unknown) => (Array.isArray(content) ? content.length : -1);

function isFresh(view: MessageView | undefined, message: unknown, index: number): view is MessageView {
  if (view === undefined || view.message !== message || view.index !== index || !isRecord(message)) return false;
  return view.role === message.role && view.content === message.content && view.contentLength === contentLengthOf(message.content);
}

function viewOf(message: unknown, index: number): MessageView {
  const known = isRecord(message) ? messageViews.get(message) : undefined;
  if (isFresh(known, message, index)) return known;
  const fields = isRecord(message) ? message : {};
  const content = fields.content;
  const parts: PartView[] = [];
  if (typeof content === "string") parts.push(new PartView({ type: "text", text: content }, index, undefined));
  else if (Array.isArray(content)) {
    for (let position = 0; position < content.length; position++) {
      const part: unknown = content[position];
      parts.push(new PartView(isRecord(part) ? part : {}, index, position));
    }
  }
  const view = { index, message, role: fields.role, content, contentLength: contentLengthOf(content), parts };
  if (isRecord(message)) messageViews.set(message, view);
  return view;
}

/** The request's messages, each with its parts (string content reads as one text part). */
function messagesOf(request: unknown): ReadonlyArray<MessageView> {
  if (!isRecord(request) || !Array.isArray(request.messages)) return [];
  const list: unknown[] = request.messages;
  const known = listViews.get(list);
  if (known !== undefined && known.length === list.length && known.every((view, index) => isFresh(view, list[index], index))) return known;
  const views = list.map(viewOf);
  listViews.set(list, views);
  return views;
}

const at = (message: MessageView, path: string): Pick<RuleViolationInput, "path" | "messageIndex"> => ({ path, messageIndex: message.index });

const isCall = (part: PartView) => part.fields.type === "tool-call";
const isResult = (part: PartView) => part.fields.type === "tool-result";
/** A call the provider executed is answered inside the assistant message, or not at all. */
const isClientCall = (part: PartView) => isCall(part) && part.fields.providerExecuted !== true;

/** The tool messages right after message `index` (the AI SDK joins them into one). */
function toolRunAfter(messages: ReadonlyArray<MessageView>, index: number): MessageView[] {
  const run: MessageView[] = [];
  for (let next = index + 1; next < messages.length && messages[next]?.role === "tool"; next++) run.push(messages[next] as MessageView);
  return run;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const CALL_ID = /^[a-zA-Z0-9_-]+$/;

export const messagesNotEmpty: Rule<unknown> = {
  id: "AISDK-001",
  level: "error",
  requires: "the request has at least one message",
  providerError: "Invalid prompt: messages must not be empty",
  check(request, report) {
    if (!isRecord(request) || !Array.isArray(request.messages) || request.messages.length === 0) report({ message: "the request has no messages", path: "messages" });
  },
};

export const noSystemMessages: Rule<unknown> = {
  id: "AISDK-002",
  level: "error",
  requires: "no system message inside messages: the system prompt goes in `system`",
  providerError: "Invalid prompt: System messages are not allowed in the prompt or messages fields. Use the instructions option instead.",
  check(request, report) {
    for (const message of messagesOf(request)) if (message.role === "system") report({ message: "a system message inside messages (AI SDK 7 refuses it unless allowSystemInMessages is set)", ...at(message, `messages[${message.index}].role`) });
  },
};

export const knownRoles: Rule<unknown> = {
  id: "AISDK-003",
  level: "error",
  requires: "every message is an object with the role user, assistant or tool, and content of that role's shape",
  providerError: `Invalid message role: 'function'. Must be one of: "system", "user", "assistant", "tool".`,
  check(request, report) {
    for (const message of messagesOf(request)) {
      const where = at(message, `messages[${message.index}]`);
      if (message.role !== "user" && message.role !== "assistant" && message.role !== "tool" && message.role !== "system") report({ message: `the role is ${describeValue(message.role)}`, ...where });
      else if (message.role === "tool" ? !Array.isArray(message.content) : typeof message.content !== "string" && !Array.isArray(message.content)) {
        report({ message: `a ${message.role} message with content ${describeValue(message.content)}`, ...at(message, `messages[${message.index}].content`) });
      }
    }
  },
};

export const toolCallsAnswered: Rule<unknown> = {
  id: "AISDK-004",
  level: "error",
  requires: "every tool call is answered by a tool-result of the same toolCallId in the tool message right after its assistant message",
  providerError: "Tool result is missing for tool call call_1. (AI_MissingToolResultsError; OpenAI: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.)",
  check(request, report) {
    const messages = messagesOf(request);
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      const calls = message.parts.filter(isClientCall);
      if (calls.length === 0) continue;
      const answered = new Set<unknown>();
      for (const tool of toolRunAfter(messages, message.index)) for (const part of tool.parts) if (isResult(part)) answered.add(part.fields.toolCallId);
      for (const call of calls) {
        if (!answered.has(call.fields.toolCallId)) report({ message: `tool call ${describeValue(call.fields.toolCallId)} has no result in the tool message after it`, ...at(message, `${call.path}.toolCallId`) });
      }
    }
  },
};

export const toolResultsAnswerPreviousCalls: Rule<unknown> = {
  id: "AISDK-005",
  level: "error",
  requires: "every tool message follows an assistant message with tool calls (or another such tool message), and each of its results answers one of those calls",
  providerError: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls' (OpenAI; also: Invalid parameter: 'tool_call_id' of 'call_1' not found in 'tool_calls' of previous message.)",
  check(request, report) {
    const messages = messagesOf(request);
    let calls: Set<unknown> | undefined;
    for (const message of messages) {
      if (message.role === "assistant") {
        calls = new Set(message.parts.filter(isCall).map((part) => part.fields.toolCallId));
        continue;
      }
      if (message.role !== "tool") {
        calls = undefined;
        continue;
      }
      for (const part of message.parts) {
        if (!isResult(part)) continue;
        if (calls === undefined) report({ message: "a tool result with no assistant message right before its tool message", ...at(message, part.path) });
        else if (!calls.has(part.fields.toolCallId)) report({ message: `tool result for ${describeValue(part.fields.toolCallId)}, which the assistant message before it did not call`, ...at(message, `${part.path}.toolCallId`) });
      }
    }
  },
};

export const toolCallIdsUnique: Rule<unknown> = {
  id: "AISDK-006",
  level: "error",
  requires: "no two tool calls share an id, and no call is answered twice",
  providerError: "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_1' in messages[7] and messages[8]. (OpenAI; Anthropic: `tool_use` ids must be unique)",
  check(request, report) {
    const calls = new Set<unknown>();
    const results = new Set<unknown>();
    for (const message of messagesOf(request)) {
      for (const part of message.parts) {
        const id = part.fields.toolCallId;
        // A provider-executed call's result sits beside it in the assistant message, once.
        const seen = isCall(part) ? calls : isResult(part) ? results : undefined;
        if (seen === undefined) continue;
        if (seen.has(id)) report({ message: `the ${isCall(part) ? "tool call" : "tool result"} id ${describeValue(id)} is used twice`, ...at(message, `${part.path}.toolCallId`) });
        seen.add(id);
      }
    }
  },
};

export const contentNotEmpty: Rule<unknown> = {
  id: "AISDK-007",
  level: "error",
  requires: "no message without content and no blank text part",
  providerError: "messages: text content blocks must be non-empty (Anthropic; OpenAI and Gemini refuse empty messages too)",
  check(request, report) {
    for (const message of messagesOf(request)) {
      if (message.parts.length === 0) {
        report({ message: "the message has no content", ...at(message, `messages[${message.index}].content`) });
        continue;
      }
      for (const part of message.parts) {
        if ((part.fields.type === "text" && (typeof part.fields.text !== "string" || isBlank(part.fields.text)))) report({ message: "a blank text part", ...at(message, part.path) });
      }
    }
  },
};

export const toolNamesMatchPattern: Rule<unknown> = {
  id: "AISDK-008",
  level: "strict",
  requires: "tool names are 1 to 64 letters, digits, underscores or hyphens",
  providerError: "Invalid 'messages[1].tool_calls[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'. (OpenAI; Anthropic and Gemini allow 64 characters)",
  check(request, report) {
    for (const message of messagesOf(request)) {
      for (const part of message.parts) {
        if ((isCall(part) || isResult(part)) && (typeof part.fields.toolName !== "string" || !TOOL_NAME.test(part.fields.toolName))) {
          report({ message: `the tool name ${describeValue(part.fields.toolName)} does not match ^[a-zA-Z0-9_-]{1,64}$`, ...at(message, `${part.path}.toolName`) });
        }
      }
    }
  },
};

export const toolCallIdsMatchPattern: Rule<unknown> = {
  id: "AISDK-009",
  level: "strict",
  requires: "tool call ids are non-empty and made of letters, digits, underscores or hyphens",
  providerError: "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$' (Anthropic)",
  check(request, report) {
    for (const message of messagesOf(request)) {
      for (const part of message.parts) {
        if ((isCall(part) || isResult(part)) && (typeof part.fields.toolCallId !== "string" || !CALL_ID.test(part.fields.toolCallId))) {
          report({ message: `the tool call id ${describeValue(part.fields.toolCallId)} does not match ^[a-zA-Z0-9_-]+$`, ...at(message, `${part.path}.toolCallId`) });
        }
      }
    }
  },
};

export const aiSdkRules: ReadonlyArray<Rule<unknown>> = [
  ...commonRequestRules,
  messagesNotEmpty,
  noSystemMessages,
  knownRoles,
  toolCallsAnswered,
  toolResultsAnswerPreviousCalls,
  toolCallIdsUnique,
  contentNotEmpty,
  toolNamesMatchPattern,
  toolCallIdsMatchPattern,
];
