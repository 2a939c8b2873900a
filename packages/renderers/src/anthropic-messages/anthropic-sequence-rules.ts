// Anthropic Messages rules on the message list as a whole, on roles and on the system prompt
// (reference/providers.md §3: ANT-001, 018, 002, 025, 003, 004, 005, 015).
import { isBlank, type Rule } from "@ctxpipe/core";
import { at, describe, isRecord, messageViewAt, messageViewsOf } from "./anthropic-message-view.js";

const MAX_MESSAGES = 100_000;

const aMessageOf = (role: string | undefined): string => (role === undefined ? "a message without a role" : `${/^[aeiou]/i.test(role) ? "an" : "a"} ${role} message`);

export const messagesNotEmpty: Rule<unknown> = {
  id: "ANT-001",
  level: "error",
  requires: "messages is a non-empty array (a conversation of only system messages, moved to system, leaves it empty)",
  providerError: "messages: at least one message is required",
  check(request, report) {
    if (!isRecord(request)) report({ message: "the request is not an object with messages", path: "messages" });
    else if (!Array.isArray(request.messages)) report({ message: request.messages === undefined ? "messages is missing" : "messages is not an array", path: "messages" });
    else if (request.messages.length === 0) report({ message: "messages is empty", path: "messages" });
  },
};

export const atMostMaxMessages: Rule<unknown> = {
  id: "ANT-018",
  level: "error",
  requires: "at most 100,000 messages (\"There is a limit of 100,000 messages in a single request.\")",
  check(request, report) {
    const messages = isRecord(request) && Array.isArray(request.messages) ? request.messages : [];
    if (messages.length > MAX_MESSAGES) report({ message: `${messages.length} messages; at most ${MAX_MESSAGES} are allowed`, path: `messages[${MAX_MESSAGES}]`, messageIndex: MAX_MESSAGES });
  },
};

export const userAndAssistantRolesOnly: Rule<unknown> = {
  id: "ANT-002",
  level: "error",
  requires: "every message is an object whose role is user or assistant; the system prompt goes in the top-level system parameter",
  providerError: 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      if (!message.isObject) report({ message: "the message is not an object", ...at(message) });
      else if (message.role === "system") report({ message: "a system message inside messages; put leading instructions in system and later ones in a user turn", ...at(message, ".role") });
      else if (message.role !== "user" && message.role !== "assistant") report({ message: `role ${describe(message.fields.role)} is not user or assistant`, ...at(message, ".role") });
    }
  },
};

export const systemIsTextOrTextBlocks: Rule<unknown> = {
  id: "ANT-025",
  level: "error",
  requires: "system, when given, is a string or an array of { type: 'text', text } blocks",
  check(request, report) {
    if (!isRecord(request) || request.system === undefined || typeof request.system === "string") return;
    if (!Array.isArray(request.system)) {
      report({ message: `system is ${describe(request.system)}, not a string or an array of text blocks`, path: "system" });
      return;
    }
    (request.system as unknown[]).forEach((block, position) => {
      if (!isRecord(block) || block.type !== "text" || typeof block.text !== "string") report({ message: "a system block must be { type: 'text', text: string }", path: `system[${position}]` });
    });
  },
};

export const noEmptySystemPrompt: Rule<unknown> = {
  id: "ANT-003",
  level: "strict",
  requires: "an empty system prompt is left out rather than sent",
  check(request, report) {
    if (!isRecord(request)) return;
    const { system } = request;
    const empty =
      (typeof system === "string" && isBlank(system)) ||
      (Array.isArray(system) && (system as unknown[]).every((block) => isRecord(block) && typeof block.text === "string" && isBlank(block.text)));
    if (empty) report({ message: "the system prompt is empty; leave system out instead", path: "system" });
  },
};

export const startsWithUser: Rule<unknown> = {
  id: "ANT-004",
  level: "strict",
  requires: "the first message is a user message (Bedrock and older models require it)",
  providerError: "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
  check(request, report) {
    const first = messageViewAt(request, 0);
    if (first !== undefined && first.role !== "user") report({ message: `the conversation starts with ${aMessageOf(first.role)}`, ...at(first, ".role") });
  },
};

export const rolesAlternate: Rule<unknown> = {
  id: "ANT-005",
  level: "strict",
  requires: "user and assistant messages alternate (the API merges neighbours of one role; Bedrock and proxies reject them)",
  providerError: 'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
  check(request, report) {
    const messages = messageViewsOf(request) ?? [];
    for (let index = 1; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.role !== undefined && message.role === messages[index - 1]!.role) {
        report({ message: `messages[${index - 1}] and messages[${index}] are both ${message.role} messages; merge them into one`, ...at(message, ".role") });
      }
    }
  },
};

export const endsOnUser: Rule<unknown> = {
  id: "ANT-015",
  level: "strict",
  requires: "the last message is a user message (newer models reject assistant prefill)",
  providerError: "This model does not support assistant message prefill. The conversation must end with a user message.",
  check(request, report) {
    const last = messageViewAt(request, -1);
    if (last === undefined || last.role === "user") return;
    report({ message: `the request ends on ${aMessageOf(last.role)}`, ...at(last, ".role") });
  },
};
