// OpenAI Chat Completions rules on the message list as a whole and on roles
// (reference/providers.md §1: OAI-001, 002, 013, 017, 018, 019).
import type { Rule } from "../../spec/rule.js";
import { at, describeValue, isRecord, messageViewAt, messageViewsOf } from "./openai-chat-message-view.js";
import { rejectsSystemRole } from "./rejects-system-role.js";
import { checkedFrom } from "../../validation/checked-from.js";

const ROLES: ReadonlySet<string> = new Set(["developer", "system", "user", "assistant", "tool", "function"]);

export const messagesNotEmpty: Rule<unknown> = {
  id: "OAI-001",
  level: "error",
  requires: "messages is a non-empty array",
  providerError: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
  check(request, report) {
    if (!isRecord(request)) report({ message: "the request is not an object with messages", path: "messages" });
    else if (!Array.isArray(request.messages)) report({ message: request.messages === undefined ? "messages is missing" : "messages is not an array", path: "messages" });
    else if (request.messages.length === 0) report({ message: "messages is empty", path: "messages" });
  },
};

export const knownRoles: Rule<unknown> = {
  id: "OAI-002",
  level: "error",
  requires: "every message is an object whose role is developer, system, user, assistant, tool or function; only assistant messages carry tool_calls",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      if (!message.isObject) report({ message: "the message is not an object", ...at(message) });
      else if (message.role === undefined || !ROLES.has(message.role)) report({ message: `the role is ${describeValue(message.fields.role)}, not one of ${[...ROLES].join(", ")}`, ...at(message, ".role") });
      else if (message.role !== "assistant" && message.fields.tool_calls !== undefined) report({ message: `a ${message.role} message cannot carry tool_calls`, ...at(message, ".tool_calls") });
    }
  },
};

export const noFunctionRole: Rule<unknown> = {
  id: "OAI-013",
  level: "strict",
  requires: "no message uses the deprecated function role (use tool messages)",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      if (message.role === "function") report({ message: "the function role is deprecated; answer tool_calls with tool messages", ...at(message, ".role") });
    }
  },
};

export const endsOnUserOrTool: Rule<unknown> = {
  id: "OAI-017",
  level: "strict",
  requires: "the last message is a user or tool message",
  check(request, report) {
    const last = messageViewAt(request, -1);
    if (last === undefined || last.role === "user" || last.role === "tool") return;
    report({ message: `the last message has role ${describeValue(last.fields.role)}; many servers expect a user or tool message last`, ...at(last, ".role") });
  },
};

export const hasUserMessage: Rule<unknown> = {
  id: "OAI-018",
  level: "strict",
  requires: "at least one message is a user message",
  check(request, report) {
    // Read message by message: the first user message is usually near the start of a long request.
    if (messageViewAt(request, -1) === undefined) return;
    for (let index = checkedFrom(request); ; index++) {
      const message = messageViewAt(request, index);
      if (message === undefined) break;
      if (message.role === "user") return;
    }
    report({ message: "no message has the user role", path: "messages" });
  },
};

export const noLeadingSystemForO1Mini: Rule<unknown> = {
  id: "OAI-019",
  level: "error",
  requires: "o1-mini gets its instructions in developer messages: it rejects a leading system message",
  providerError: "Unsupported value: 'messages[0].role' does not support 'system' with this model.",
  appliesTo: (env) => rejectsSystemRole(env.model),
  check(request, report, env) {
    // Only the leading instructions: a system message in the middle of the conversation is accepted.
    for (let index = checkedFrom(request); ; index++) {
      const message = messageViewAt(request, index);
      if (message === undefined || (message.role !== "system" && message.role !== "developer")) return;
      if (message.role === "system") report({ message: `${env.model} does not support the system role; use developer`, ...at(message, ".role") });
    }
  },
};
