import { checkRules } from "@ctxpipe/core";
import type { ModelMessage } from "ai";
import { describe, expect, test } from "vitest";
import { aiSdkRules } from "./ai-sdk-rules.js";

const call = (toolCallId: string, toolName = "weather") => ({ type: "tool-call", toolCallId, toolName, input: {} }) as const;
const result = (toolCallId: string, toolName = "weather") => ({ type: "tool-result", toolCallId, toolName, output: { type: "text", value: "ok" } }) as const;
const user: ModelMessage = { role: "user", content: "hi" };

/** Only this package's own rules: the common ones have their own tests in core. */
const violations = (messages: unknown[]) => checkRules(aiSdkRules, { messages }).filter((violation) => violation.rule.startsWith("AISDK"));

describe("aiSdkRules", () => {
  test("a well-formed tool loop breaks no rule", () => {
    const messages: ModelMessage[] = [
      user,
      { role: "assistant", content: [{ type: "text", text: "Checking." }, call("call_1"), call("call_2")] },
      { role: "tool", content: [result("call_1")] },
      { role: "tool", content: [result("call_2")] },
      // A call the provider executed is answered beside it, in the assistant message.
      { role: "assistant", content: [{ ...call("ws_1", "web_search"), providerExecuted: true }, result("ws_1", "web_search"), { type: "text", text: "Done." }] },
    ];
    expect(checkRules(aiSdkRules, { system: "Be brief.", messages })).toEqual([]);
  });

  test.for<{ rule: string; messages: unknown[]; path: string; message: string }>([
    { rule: "AISDK-001", messages: [], path: "messages", message: "the request has no messages" },
    {
      rule: "AISDK-002",
      messages: [{ role: "system", content: "x" }, user],
      path: "messages[0].role",
      message: "a system message inside messages (AI SDK 7 refuses it unless allowSystemInMessages is set)",
    },
    { rule: "AISDK-003", messages: [user, { role: "function", content: "x" }], path: "messages[1]", message: 'the role is "function"' },
    { rule: "AISDK-003", messages: [user, { role: "tool", content: "x" }], path: "messages[1].content", message: 'a tool message with content "x"' },
    {
      rule: "AISDK-004",
      messages: [user, { role: "assistant", content: [call("call_1"), call("call_2")] }, { role: "tool", content: [result("call_1")] }, user],
      path: "messages[1].content[1].toolCallId",
      message: 'tool call "call_2" has no result in the tool message after it',
    },
    {
      rule: "AISDK-005",
      messages: [user, { role: "assistant", content: [call("call_1")] }, { role: "tool", content: [result("call_1"), result("call_9")] }],
      path: "messages[2].content[1].toolCallId",
      message: 'tool result for "call_9", which the assistant message before it did not call',
    },
    { rule: "AISDK-005", messages: [user, { role: "tool", content: [result("call_1")] }], path: "messages[1].content[0]", message: "a tool result with no assistant message right before its tool message" },
    {
      rule: "AISDK-006",
      messages: [user, { role: "assistant", content: [call("call_1")] }, { role: "tool", content: [result("call_1")] }, { role: "assistant", content: [call("call_1")] }, { role: "tool", content: [result("call_1")] }],
      path: "messages[3].content[0].toolCallId",
      message: 'the tool call id "call_1" is used twice',
    },
    { rule: "AISDK-007", messages: [user, { role: "assistant", content: [] }], path: "messages[1].content", message: "the message has no content" },
    { rule: "AISDK-007", messages: [{ role: "user", content: " " }], path: "messages[0].content", message: "a blank text part" },
    {
      rule: "AISDK-008",
      messages: [user, { role: "assistant", content: [call("c1", "github.search")] }, { role: "tool", content: [result("c1", "github.search")] }],
      path: "messages[1].content[0].toolName",
      message: 'the tool name "github.search" does not match ^[a-zA-Z0-9_-]{1,64}$',
    },
    {
      rule: "AISDK-009",
      messages: [user, { role: "assistant", content: [call("call 1")] }, { role: "tool", content: [result("call 1")] }],
      path: "messages[1].content[0].toolCallId",
      message: 'the tool call id "call 1" does not match ^[a-zA-Z0-9_-]+$',
    },
  ])("$rule: $message", ({ rule, messages, path, message }) => {
    const found = violations(messages);
    expect(found[0]).toMatchObject({ rule, path, message });
    expect(found[0]?.providerError).toEqual(aiSdkRules.find((candidate) => candidate.id === rule)?.providerError);
  });

  test("every rule has an id, a level, what it requires and the error a user would meet", () => {
    for (const rule of aiSdkRules) {
      expect(rule.id).toMatch(/^[A-Z]+-\d{3}$/);
      expect(["error", "strict"]).toContain(rule.level);
      expect(rule.requires.length).toBeGreaterThan(0);
    }
    expect(aiSdkRules.filter((rule) => rule.id.startsWith("AISDK")).every((rule) => (rule.providerError?.length ?? 0) > 0)).toBe(true);
  });
});
