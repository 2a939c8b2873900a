import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, test } from "vitest";
import { generateConversation } from "./generate-conversation.js";
import { toLangChainMessage, toLangChainMessages } from "./to-langchain-messages.js";
import { TrimMessagesBaseline } from "./trim-messages-baseline.js";

const stored = generateConversation(120, 3);

describe("toLangChainMessages", () => {
  test("converts each role, keeps ids and tool calls, and converts a message only once", () => {
    const messages = toLangChainMessages(stored);
    expect(messages.map((message) => message.id)).toEqual(stored.map((message) => message.id));
    const callAt = stored.findIndex((message) => (message.tool_calls?.length ?? 0) > 1);
    const call = messages[callAt] as AIMessage;
    expect(call).toBeInstanceOf(AIMessage);
    expect(call.tool_calls?.map((entry) => [entry.id, entry.name, entry.args])).toEqual(
      stored[callAt]!.tool_calls!.map((entry) => [entry.id, entry.function.name, JSON.parse(entry.function.arguments)]),
    );
    const result = messages[callAt + 1] as ToolMessage;
    expect(result).toBeInstanceOf(ToolMessage);
    expect(result.tool_call_id).toBe(stored[callAt]!.tool_calls![0]!.id);
    expect(messages[0]).toBeInstanceOf(HumanMessage);
    expect(toLangChainMessage(stored[5]!)).toBe(messages[5]);
  });
});

describe("TrimMessagesBaseline", () => {
  test("counts exact o200k tokens plus OpenAI's per-message overhead", () => {
    const baseline = new TrimMessagesBaseline();
    const text = "构建失败了 <|endoftext|> because the lockfile is outdated.";
    const call = new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "read_file", args: { path: "a.ts" }, type: "tool_call" }] });
    expect(baseline.countMessage(new HumanMessage(text))).toBe(4 + countTokens(text, { disallowedSpecial: new Set() }));
    expect(baseline.countMessage(call)).toBe(4 + countTokens("read_file") + countTokens('{"path":"a.ts"}'));
    expect(baseline.countTokens([new HumanMessage(text), call])).toBe(3 + baseline.countMessage(new HumanMessage(text)) + baseline.countMessage(call));
  });

  test("remembers a count by message id, which survives trimMessages' copies", async () => {
    const baseline = new TrimMessagesBaseline();
    expect(baseline.countMessage(new HumanMessage({ id: "a", content: "one two three" }))).toBe(4 + 3);
    // Same id, other object and content: the remembered count is used, so nothing is recounted.
    expect(baseline.countMessage(new HumanMessage({ id: "a", content: "" }))).toBe(4 + 3);
    const original = new HumanMessage({ id: "b", content: "hello there" });
    const [copy] = await baseline.trim([original], 1_000);
    expect(copy).not.toBe(original);
    expect(baseline.countMessage(copy!)).toBe(baseline.countMessage(original));
  });

  test("trims to the newest messages within the budget, starting on a human message after the system message", async () => {
    const baseline = new TrimMessagesBaseline();
    const messages = [new SystemMessage("You are terse."), ...toLangChainMessages(stored)];
    const maxTokens = Math.floor(baseline.countTokens(messages) / 2);
    const trimmed = await baseline.trim(messages, maxTokens);

    expect(baseline.countTokens(trimmed)).toBeLessThanOrEqual(maxTokens);
    expect(trimmed.length).toBeLessThan(messages.length);
    expect(trimmed[0]).toBeInstanceOf(SystemMessage);
    expect(trimmed[1]).toBeInstanceOf(HumanMessage);
    const ids = trimmed.slice(1).map((message) => message.id);
    expect(ids).toEqual(stored.slice(stored.length - ids.length).map((message) => message.id));
    expect(ids.at(-1)).toBe(stored.at(-1)!.id);
    // As many as fit: starting at the previous human message would have gone over the budget.
    const previousHuman = messages.findLastIndex((message, index) => index < messages.length - ids.length && message instanceof HumanMessage);
    expect(previousHuman).toBeGreaterThan(0);
    expect(baseline.countTokens([messages[0]!, ...messages.slice(previousHuman)])).toBeGreaterThan(maxTokens);
  });
});
