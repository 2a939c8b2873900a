// The rule table of a LangChain message list: what the providers behind LangChain's chat models
// require of the messages LangChain sends them (reference/providers.md, through @langchain/openai,
// @langchain/anthropic and @langchain/google), and what LangChain's own converters refuse. The
// renderer checks every request it builds with it; checkRules() runs it on any message list.
import { isBlank, type Rule, type RuleViolationInput } from "@ctxpipe/core";
import { langChainMessageType } from "../messages/langchain-message-type.js";

interface MessageView {
  readonly index: number;
  /** human, ai, system, tool (a ChatMessage by its role), or the raw type. */
  readonly type: string;
  readonly id: unknown;
  readonly content: unknown;
  readonly toolCalls: ReadonlyArray<Record<string, unknown>>;
  readonly invalidToolCalls: number;
  readonly toolCallId: unknown;
}

const GENERIC_ROLES: Readonly<Record<string, string>> = { user: "human", human: "human", assistant: "ai", ai: "ai", system: "system", developer: "system", tool: "tool" };

function viewsOf(subject: unknown): MessageView[] | undefined {
  const messages = (subject as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return undefined;
  return messages.map((message: unknown, index): MessageView => {
    if (typeof message !== "object" || message === null) return { index, type: "(not an object)", id: undefined, content: undefined, toolCalls: [], invalidToolCalls: 0, toolCallId: undefined };
    const kind = langChainMessageType(message);
    const record = message as Record<string, unknown>;
    let type = "known" in kind ? (kind.known as string) : String(kind.unknown);
    if (type === "generic") type = GENERIC_ROLES[String(record.role)] ?? `generic (${String(record.role)})`;
    if (type === "developer") type = "system";
    const calls = Array.isArray(record.tool_calls) ? (record.tool_calls as Array<Record<string, unknown>>) : [];
    return {
      index,
      type,
      id: record.id,
      content: record.content,
      toolCalls: type === "ai" ? calls : [],
      invalidToolCalls: Array.isArray(record.invalid_tool_calls) ? record.invalid_tool_calls.length : 0,
      toolCallId: record.tool_call_id,
    };
  });
}

/** A rule over the message views; a request without a messages array is LC-001's to report. */
function rule(definition: Omit<Rule<unknown>, "check"> & { check(views: MessageView[], report: (violation: RuleViolationInput) => void): void }): Rule<unknown> {
  const { check, ...rest } = definition;
  return {
    ...rest,
    check(subject, report) {
      const views = viewsOf(subject);
      if (views !== undefined) check(views, report);
    },
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block: unknown) => (typeof block === "string" ? block : typeof (block as { text?: unknown })?.text === "string" ? (block as { text: string }).text : "")).join("");
}

/** Whether the content says anything: non-blank text, or any block that is not text (an image, a file). */
function hasContent(content: unknown): boolean {
  if (!isBlank(textOf(content))) return true;
  return Array.isArray(content) && content.some((block: unknown) => typeof block === "object" && block !== null && (block as { type?: unknown }).type !== "text");
}

const at = (view: MessageView, field?: string): { path: string; messageIndex: number } => ({ path: `messages[${view.index}]${field === undefined ? "" : `.${field}`}`, messageIndex: view.index });

export const messagesNotEmpty: Rule<unknown> = {
  id: "LC-001",
  level: "error",
  requires: "messages is a non-empty array",
  providerError: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
  check(subject, report) {
    const messages = (subject as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(messages)) report({ message: "the request has no messages array", path: "messages" });
    else if (messages.length === 0) report({ message: "there are no messages", path: "messages" });
  },
};

export const knownMessageTypes = rule({
  id: "LC-002",
  level: "error",
  requires: "every message is a human, ai, system or tool message (a ChatMessage with the role user, assistant or system)",
  check(views, report) {
    for (const view of views) if (!["human", "ai", "system", "tool"].includes(view.type)) report({ message: `a ${view.type} message cannot be sent to a chat model`, ...at(view) });
  },
});

export const systemMessageFirst = rule({
  id: "LC-003",
  level: "strict",
  requires: "a system message comes only first (Anthropic and Gemini chat models refuse one anywhere else; OpenAI accepts it)",
  providerError: "System messages are only permitted as the first passed message.",
  check(views, report) {
    for (const view of views) if (view.type === "system" && view.index > 0) report({ message: "a system message after the first message", ...at(view) });
  },
});

export const toolMessagesAnswerPrecedingCalls = rule({
  id: "LC-004",
  level: "error",
  requires: "a tool message answers a call of the ai message right before its run of tool messages",
  providerError: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
  check(views, report) {
    let calls: ReadonlySet<unknown> = new Set();
    for (const view of views) {
      if (view.type === "tool") {
        if (!calls.has(view.toolCallId)) report({ message: `the tool message answers "${String(view.toolCallId)}", which is not a call of the ai message before it`, ...at(view, "tool_call_id") });
      } else calls = new Set(view.toolCalls.map((call) => call.id));
    }
  },
});

export const callsAnsweredRightAway = rule({
  id: "LC-005",
  level: "error",
  requires: "every tool call of an ai message is answered by a tool message right after it, before any other message",
  providerError:
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_…",
  check(views, report) {
    views.forEach((view, position) => {
      if (view.toolCalls.length === 0) return;
      const answered = new Set<unknown>();
      for (let next = position + 1; next < views.length && views[next]!.type === "tool"; next++) answered.add(views[next]!.toolCallId);
      view.toolCalls.forEach((call, index) => {
        if (!answered.has(call.id)) report({ message: `the tool call "${String(call.id)}" (${String(call.name)}) has no tool message right after it`, ...at(view, `tool_calls[${index}]`) });
      });
    });
  },
});

export const callsAnsweredOnce = rule({
  id: "LC-006",
  level: "error",
  requires: "no tool call id is used twice in the request, and no call is answered twice",
  providerError: "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_…', in messages[7] and messages[8].",
  check(views, report) {
    const calls = new Set<unknown>();
    const answers = new Set<unknown>();
    for (const view of views) {
      view.toolCalls.forEach((call, index) => {
        if (calls.has(call.id)) report({ message: `the tool call id "${String(call.id)}" is used again`, ...at(view, `tool_calls[${index}].id`) });
        calls.add(call.id);
      });
      if (view.type === "tool") {
        if (answers.has(view.toolCallId)) report({ message: `the call "${String(view.toolCallId)}" is answered again`, ...at(view, "tool_call_id") });
        answers.add(view.toolCallId);
      }
    }
  },
});

export const toolCallsWellFormed = rule({
  id: "LC-007",
  level: "error",
  requires: "every tool call has a non-empty id and name and its args are an object",
  check(views, report) {
    for (const view of views) {
      view.toolCalls.forEach((call, index) => {
        if (typeof call.id !== "string" || call.id.length === 0) report({ message: "a tool call without an id: its tool message cannot name it", ...at(view, `tool_calls[${index}].id`) });
        if (typeof call.name !== "string" || call.name.length === 0) report({ message: "a tool call without a tool name", ...at(view, `tool_calls[${index}].name`) });
        if (typeof call.args !== "object" || call.args === null || Array.isArray(call.args)) report({ message: "the tool call's args are not an object", ...at(view, `tool_calls[${index}].args`) });
      });
    }
  },
});

export const noInvalidToolCalls = rule({
  id: "LC-008",
  level: "error",
  requires: "no ai message carries invalid_tool_calls: a call whose arguments did not parse has no result, and providers refuse its arguments",
  check(views, report) {
    for (const view of views) if (view.invalidToolCalls > 0) report({ message: `the ai message carries ${view.invalidToolCalls} invalid tool call(s)`, ...at(view, "invalid_tool_calls") });
  },
});

export const noBlankAiMessages = rule({
  id: "LC-009",
  level: "strict",
  requires: "an ai message has content or tool calls",
  providerError: "messages.0: all messages must have non-empty content except for the optional final assistant message",
  check(views, report) {
    for (const view of views) if (view.type === "ai" && view.toolCalls.length === 0 && !hasContent(view.content)) report({ message: "an ai message with no content and no tool calls", ...at(view, "content") });
  },
});

export const noBlankMessages = rule({
  id: "LC-010",
  level: "strict",
  requires: "human, system and tool messages have non-blank content",
  providerError: "messages: text content blocks must be non-empty",
  check(views, report) {
    for (const view of views) if ((view.type === "human" || view.type === "system" || view.type === "tool") && !hasContent(view.content)) report({ message: `a ${view.type} message with blank content`, ...at(view, "content") });
  },
});

export const messageIdsUnique = rule({
  id: "LC-011",
  level: "strict",
  requires: "no two messages share an id (LangGraph's message reducer treats them as one message: the second is a duplicate)",
  check(views, report) {
    const seen = new Set<unknown>();
    for (const view of views) {
      if (typeof view.id !== "string" || view.id.length === 0) continue;
      if (seen.has(view.id)) report({ message: `the id "${view.id}" is used by an earlier message`, ...at(view, "id") });
      seen.add(view.id);
    }
  },
});

export const conversationStartsWithHuman = rule({
  id: "LC-012",
  level: "strict",
  requires: "the first message after the system message is a human message",
  check(views, report) {
    const first = views.find((view) => view.type !== "system");
    if (first !== undefined && first.type !== "human") report({ message: `the conversation starts with a ${first.type} message`, ...at(first) });
  },
});

export const endsOnHumanOrTool = rule({
  id: "LC-013",
  level: "strict",
  requires: "the last message is a human or tool message (models that refuse a prefilled answer reject an ai message last)",
  providerError: "This model does not support assistant message prefill. The conversation must end with a user message.",
  check(views, report) {
    const last = views.at(-1);
    if (last !== undefined && last.type !== "human" && last.type !== "tool") report({ message: `the request ends with a ${last.type} message`, ...at(last) });
  },
});

/** In id order. */
export const langChainRules: ReadonlyArray<Rule<unknown>> = [
  messagesNotEmpty,
  knownMessageTypes,
  systemMessageFirst,
  toolMessagesAnswerPrecedingCalls,
  callsAnsweredRightAway,
  callsAnsweredOnce,
  toolCallsWellFormed,
  noInvalidToolCalls,
  noBlankAiMessages,
  noBlankMessages,
  messageIdsUnique,
  conversationStartsWithHuman,
  endsOnHumanOrTool,
];
