// The generator must actually produce every trap, or the provider-valid property proves little.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ItemInput } from "../model/item.js";
import { parseItems } from "../model/parse-items.js";
import { adversarialConversations } from "./adversarial-conversations.js";

type Calls = Array<{ id: string; name: string; arguments: string }>;
const callsOf = (item: ItemInput): Calls => (item.type === "assistant" ? ((item.toolCalls ?? []) as Calls) : []);
const textOf = (item: ItemInput) => ("text" in item && typeof item.text === "string" ? item.text : "");

const TRAPS: Record<string, (items: ItemInput[]) => boolean> = {
  "a result without its call": (items) => items.some((item) => item.type === "tool-result" && !items.some((other) => callsOf(other).some((call) => call.id === item.callId))),
  "a call without its result": (items) => items.some((item) => callsOf(item).some((call) => !items.some((other) => other.type === "tool-result" && other.callId === call.id))),
  "a result stored before its call": (items) => items.some((item, index) => item.type === "tool-result" && items.slice(index + 1).some((later) => callsOf(later).some((call) => call.id === item.callId))),
  "a message between a call and its results": (items) =>
    items.some((item, index) => callsOf(item).length > 0 && items[index + 1]?.type === "tool-result" && items[index + 2] !== undefined && items[index + 2]!.type !== "tool-result" && items.slice(index + 3).some((later) => later.type === "tool-result")),
  "parallel results out of order": (items) => items.some((item, index) => callsOf(item).length > 1 && items[index + 1]?.type === "tool-result" && (items[index + 1] as { callId: string }).callId !== callsOf(item)[0]!.id),
  "a call answered twice": (items) => items.some((item, index) => item.type === "tool-result" && items.slice(index + 1).some((later) => later.type === "tool-result" && later.callId === item.callId)),
  "a call id repeated": (items) => {
    const ids = items.flatMap((item) => callsOf(item).map((call) => call.id));
    return new Set(ids).size < ids.length;
  },
  "a call id over 40 characters or with foreign characters": (items) => items.some((item) => callsOf(item).some((call) => !/^[a-zA-Z0-9_-]{1,40}$/.test(call.id))),
  "a tool name providers reject": (items) => items.some((item) => callsOf(item).some((call) => !/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/.test(call.name))),
  "arguments that are not a JSON object": (items) => items.some((item) => callsOf(item).some((call) => !call.arguments.startsWith("{") || !call.arguments.endsWith("}"))),
  "empty or whitespace-only text": (items) => items.some((item) => item.type === "user" && textOf(item).trim() === ""),
  "invisible-only text": (items) => items.some((item) => /^[\u200B\uFEFF\u2060\u00AD\s]+$/.test(textOf(item)) && textOf(item).trim() !== ""),
  "a lone surrogate": (items) => items.some((item) => !JSON.stringify(item).isWellFormed() || !textOf(item).isWellFormed()),
  "a system message after the start": (items) => items.some((item, index) => index > 0 && item.type === "system"),
  "a summary": (items) => items.some((item) => item.type === "summary"),
  "a history that starts with the assistant": (items) => items[0]?.type === "assistant",
  "a history that starts with a tool result": (items) => items[0]?.type === "tool-result",
  "a history that ends with the assistant": (items) => items.at(-1)?.type === "assistant",
  "a persisted error followed by the user": (items) => items.some((item, index) => item.type === "error" && items[index + 1]?.type === "user"),
  "a record stored twice": (items) => items.some((item, index) => items.findIndex((other) => other.id === item.id) !== index),
  "thinking and signed reasoning": (items) => items.some((item) => item.type === "thinking") && items.some((item) => item.type === "assistant" && item.reasoning?.some((entry) => entry.signature !== undefined)),
  "a message excluded from context": (items) => items.some((item) => item.metadata?.includeInContext === false),
  "an attachment": (items) => items.some((item) => item.type === "user" && (item.attachments?.length ?? 0) > 0),
  "subagents, todos and task outcomes": (items) => items.some((item) => item.type.startsWith("subagent") || item.type === "todo-update" || item.type.startsWith("task-")),
};

describe("adversarialConversations", () => {
  const samples = fc.sample(adversarialConversations(fc), { numRuns: 3000, seed: 42 });

  test.for(Object.keys(TRAPS))("generates: %s", (trap) => {
    expect(samples.filter(TRAPS[trap]!).length).toBeGreaterThan(5);
  });

  test("every conversation is valid input (repeats of a record are exact copies)", () => {
    for (const items of samples) {
      const unique = items.filter((item, index) => items.findIndex((other) => other.id === item.id) === index);
      expect(() => parseItems(unique)).not.toThrow();
    }
  });
});
