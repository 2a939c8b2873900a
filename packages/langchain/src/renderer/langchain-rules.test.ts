import { checkRules } from "@ctxpipe/core";
import { AIMessage, type BaseMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { langChainRules } from "./langchain-rules.js";

const call = (id: string) => ({ id, name: "search", args: { q: "x" }, type: "tool_call" as const });
const ask = new HumanMessage({ id: "h", content: "Search" });
const calling = (...ids: string[]) => new AIMessage({ id: `a-${ids.join("-")}`, content: "", tool_calls: ids.map(call) });
const answer = (id: string, messageId = `t-${id}`) => new ToolMessage({ id: messageId, tool_call_id: id, content: "found" });

describe("langChainRules", () => {
  test("rule ids are unique and each rule says what it requires", () => {
    expect(new Set(langChainRules.map((rule) => rule.id)).size).toBe(langChainRules.length);
    for (const rule of langChainRules) expect(rule.requires.length).toBeGreaterThan(10);
  });

  test("a valid tool loop breaks no rule", () => {
    const messages = [new SystemMessage("Be brief."), ask, calling("c1", "c2"), answer("c1"), answer("c2"), new AIMessage({ id: "a", content: "Done." }), new HumanMessage({ id: "h2", content: "Thanks" })];
    expect(checkRules(langChainRules, { messages })).toEqual([]);
  });

  test.for<{ name: string; messages: unknown[] | undefined; rule: string; path: string }>([
    { name: "no messages", messages: [], rule: "LC-001", path: "messages" },
    { name: "no messages array", messages: undefined, rule: "LC-001", path: "messages" },
    { name: "a ChatMessage with an unknown role", messages: [ask, new ChatMessage({ role: "critic", content: "x" })], rule: "LC-002", path: "messages[1]" },
    { name: "a system message after the first", messages: [ask, new SystemMessage("late")], rule: "LC-003", path: "messages[1]" },
    { name: "an orphan tool message", messages: [ask, answer("zz")], rule: "LC-004", path: "messages[1].tool_call_id" },
    { name: "an unanswered call", messages: [ask, calling("c1"), new HumanMessage("next")], rule: "LC-005", path: "messages[1].tool_calls[0]" },
    { name: "a call answered twice", messages: [ask, calling("c1"), answer("c1"), answer("c1", "t-again")], rule: "LC-006", path: "messages[3].tool_call_id" },
    { name: "a call without an id", messages: [ask, new AIMessage({ content: "", tool_calls: [{ name: "search", args: {} }] })], rule: "LC-007", path: "messages[1].tool_calls[0].id" },
    { name: "invalid tool calls", messages: [ask, new AIMessage({ content: "x", invalid_tool_calls: [{ id: "c", name: "s", args: "{", error: "bad" }] })], rule: "LC-008", path: "messages[1].invalid_tool_calls" },
    { name: "an empty ai message", messages: [ask, new AIMessage({ content: "" }), new HumanMessage("?")], rule: "LC-009", path: "messages[1].content" },
    { name: "a blank human message", messages: [new HumanMessage("  ")], rule: "LC-010", path: "messages[0].content" },
    { name: "two messages with one id", messages: [ask, new AIMessage({ id: "h", content: "copy" }), new HumanMessage("?")], rule: "LC-011", path: "messages[1].id" },
    { name: "starting with an ai message", messages: [new SystemMessage("s"), new AIMessage("Hello"), new HumanMessage("Hi")], rule: "LC-012", path: "messages[1]" },
    { name: "ending with an ai message", messages: [ask, new AIMessage("prefill")], rule: "LC-013", path: "messages[1]" },
  ])("$rule: $name", ({ messages, rule, path }) => {
    const violations = checkRules(langChainRules, messages === undefined ? {} : { messages: messages as BaseMessage[] });
    expect(violations.map((violation) => [violation.rule, violation.path])).toContainEqual([rule, path]);
  });
});
