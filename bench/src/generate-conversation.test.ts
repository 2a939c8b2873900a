import { createPipeline, importStoredMessages } from "@ctxpipe/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { generateConversation, type StoredMessage } from "./generate-conversation.js";

const HAN = /\p{Script=Han}/u;
const conversation = generateConversation(1_000);

/** Problems with the call/result structure: every call answered right after its call message, nothing else. */
function structureProblems(messages: ReadonlyArray<StoredMessage>): string[] {
  const problems: string[] = [];
  let pending: string[] = [];
  for (const message of messages) {
    if (message.role === "tool") {
      if (message.tool_call_id !== pending[0]) problems.push(`${message.id} answers ${message.tool_call_id}, expected ${pending[0]}`);
      pending = pending.slice(1);
      continue;
    }
    if (pending.length > 0) problems.push(`${message.id} comes before the results of ${pending.join(", ")}`);
    pending = (message.tool_calls ?? []).map((call) => call.id);
  }
  if (pending.length > 0) problems.push(`unanswered at the end: ${pending.join(", ")}`);
  return problems;
}

describe("generateConversation", () => {
  test("the same seed gives the same conversation, another seed another one", () => {
    expect(generateConversation(1_000)).toEqual(conversation);
    expect(generateConversation(300, 7)).toEqual(generateConversation(300, 7));
    expect(generateConversation(300, 8)).not.toEqual(generateConversation(300, 7));
  });

  test("any length: exactly that many messages, starting with the user, every call answered", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 250 }), fc.integer({ min: 0, max: 2 ** 31 }), (count, seed) => {
        const messages = generateConversation(count, seed);
        expect(messages).toHaveLength(count);
        expect(messages[0]?.role).toBe("user");
        expect(new Set(messages.map((message) => message.id)).size).toBe(count);
        expect(structureProblems(messages)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  test("the mix: prose, Chinese, code, logs, JSON, parallel calls, text with calls, 1–20 KB results", () => {
    const users = conversation.filter((message) => message.role === "user");
    const calls = conversation.filter((message) => message.tool_calls !== undefined);
    const results = conversation.filter((message) => message.role === "tool").map((message) => message.content ?? "");
    const sizes = results.map((content) => Buffer.byteLength(content));

    expect(users.some((message) => HAN.test(message.content ?? ""))).toBe(true);
    expect(users.some((message) => /^[A-Z][a-z]+ /.test(message.content ?? ""))).toBe(true);
    expect(results.some((content) => content.includes("export async function"))).toBe(true);
    expect(results.some((content) => /^\d{4}-\d\d-\d\dT[\d:.]+Z (INFO|WARN|ERROR)/m.test(content))).toBe(true);
    expect(results.some((content) => content.startsWith("{") && typeof JSON.parse(content) === "object")).toBe(true);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20_000);
    expect(Math.max(...sizes)).toBeGreaterThan(15_000);

    const callCounts = new Set(calls.map((message) => message.tool_calls!.length));
    expect([...callCounts].sort()).toEqual([1, 2, 3, 4]);
    expect(calls.some((message) => message.content !== null)).toBe(true);
    expect(calls.some((message) => message.content === null)).toBe(true);
    for (const call of calls.flatMap((message) => message.tool_calls!)) expect(() => JSON.parse(call.function.arguments)).not.toThrow();
    expect(conversation.some((message) => message.is_error === true)).toBe(true);
  });

  test("the core importer reads it and the default pipeline keeps every message without repairs", async () => {
    const items = importStoredMessages(generateConversation(200));
    expect(items).toHaveLength(200);
    const result = await createPipeline().build(items);
    expect(result.report.entries.filter((entry) => entry.decision !== "kept")).toEqual([]);
    expect(result.report.repairedViolations).toEqual([]);
  });
});
