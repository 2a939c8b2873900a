import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { deepFreeze } from "../model/deep-freeze.js";
import { importStoredMessages, readStoredMessage } from "./import-stored-messages.js";
import { readStoredMessageFast, storedReadCounts } from "./read-stored-message-fast.js";
import { runImport } from "./run-import.js";

/** The general reader alone, as importStoredMessages read every record before the fast path. */
const importGeneral = (messages: unknown) => runImport("stored message", messages, readStoredMessage);

/** What an import gives: its items as JSON text (key order included), or the error it threw. */
function outcome(run: () => unknown): { items: string } | { error: unknown } {
  try {
    return { items: JSON.stringify(run()) };
  } catch (error) {
    const { name, message, issues } = error as { name: string; message: string; issues?: unknown };
    return { error: { name, message, issues } };
  }
}

// Near-valid values: the right type most of the time, and the wrong ones the readers must refuse.
const odd = fc.constantFrom<unknown>(null, undefined, "", 0, -1, 1.5, Number.NaN, true, [], {}, "x");
const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: odd });
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("hello", "ok\nfine", "中文"));
const part = fc.oneof(
  fc.record({ type: fc.constant("text"), text }),
  fc.record({ type: maybe(fc.constantFrom("text", "image_url", "input_audio", "tool_result", "refusal")), text: maybe(text) }, { requiredKeys: [] }),
  fc.record({ type: fc.constant("text"), text, cache_control: fc.constant({ type: "ephemeral" }) }),
  fc.record({ type: fc.constant("image_url"), image_url: fc.record({ url: maybe(text) }) }),
  fc.record({ type: fc.constant("tool_result"), tool_use_id: maybe(text), content: maybe(text) }, { requiredKeys: [] }),
  odd,
);
const content = fc.oneof({ weight: 5, arbitrary: text }, { weight: 2, arbitrary: fc.array(part, { maxLength: 3 }) }, { weight: 1, arbitrary: odd });
const args = fc.oneof(fc.constantFrom('{"path":"a"}', "{broken", "", "{}"), fc.constant({ path: "." }), odd);
const call = fc.oneof(
  fc.record({ id: maybe(text), type: maybe(fc.constant("function")), function: maybe(fc.record({ name: maybe(text), arguments: args }, { requiredKeys: [] })) }, { requiredKeys: [] }),
  fc.record({ id: maybe(text), name: maybe(text), arguments: args }, { requiredKeys: [] }),
  fc.record({ id: text, type: fc.constant("function"), function: fc.record({ name: fc.constant("read"), arguments: args }), index: fc.nat(3) }),
  odd,
);
const fields = {
    id: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("m1", "m2") }, { weight: 1, arbitrary: fc.constantFrom(7, 1.5, Number.POSITIVE_INFINITY) }, { weight: 1, arbitrary: odd }),
    role: fc.oneof({ weight: 8, arbitrary: fc.constantFrom("user", "assistant", "tool", "system", "developer") }, { weight: 1, arbitrary: fc.constantFrom("bot", null, 3) }),
    content,
    createdAt: maybe(fc.constantFrom("2026-01-01T10:00:00.000Z", "not a date", 1_767_261_600_000 as unknown)),
    mode: maybe(fc.constantFrom("chat", "agent")),
    runId: maybe(text),
    agentId: maybe(text),
    priority: maybe(fc.constantFrom(0, 5, -2, 1.5)),
    includeInContext: maybe(fc.boolean()),
    pinned: maybe(fc.boolean()),
    tool_calls: fc.oneof(fc.array(call, { maxLength: 3 }), odd),
    toolCalls: fc.array(call, { maxLength: 1 }),
    tool_call_id: maybe(fc.constantFrom("call_1", "")),
    partType: maybe(fc.constantFrom("error", "tool_result", "task_completed", "task_abandoned", "task_terminated", "thinking")),
    error: maybe(fc.boolean()),
    is_error: maybe(fc.boolean()),
    toolName: maybe(text),
    duration: maybe(fc.constantFrom(0, 12, -1, 2.5)),
    reason: maybe(text),
    terminatedBy: maybe(text),
    body: fc.constant({ role: "user", content: "in a body" }),
    kind: fc.constantFrom("summary"),
    note: text,
};
type Key = keyof typeof fields;
/** A record with some of the fields: mostly the ones a stored message of its kind has, sometimes any. */
const withKeys = (keys: ReadonlyArray<Key>) =>
  fc.record(Object.fromEntries(keys.map((key) => [key, fields[key]])) as { [K in Key]: (typeof fields)[K] }, { requiredKeys: keys.filter((key) => key === "id" || key === "role") });
const COMMON: Key[] = ["id", "role", "content", "createdAt", "mode", "runId", "agentId", "priority", "includeInContext", "pinned"];
const stored = fc.oneof(
  { weight: 2, arbitrary: withKeys(COMMON) },
  { weight: 3, arbitrary: withKeys([...COMMON, "tool_calls", "partType", "error"]) },
  { weight: 3, arbitrary: withKeys([...COMMON, "tool_call_id", "partType", "error", "is_error", "toolName", "duration"]) },
  { weight: 2, arbitrary: withKeys([...COMMON, "partType", "reason", "terminatedBy"]) },
  { weight: 1, arbitrary: withKeys(Object.keys(fields) as Key[]) },
);

describe("readStoredMessageFast", () => {
  test("gives what the general reader and the item schema give, items or errors, for near-valid records", () => {
    fc.assert(
      fc.property(fc.array(stored, { maxLength: 4 }), fc.boolean(), (records, frozen) => {
        // Fresh copies for each import: the memo would otherwise hand the second import the first's items.
        const copy = () => structuredClone(records) as unknown[];
        const input = frozen ? () => deepFreeze(copy()) : copy;
        expect(outcome(() => importStoredMessages(input()))).toStrictEqual(outcome(() => importGeneral(input())));
        expect(() => importStoredMessages(input())).not.toThrow(TypeError);
      }),
      { numRuns: 3000 },
    );
  });

  test("items it reads are deep-equal to the general reader's, key order included", () => {
    let taken = 0;
    fc.assert(
      fc.property(stored, (record) => {
        const fast = readStoredMessageFast(record);
        if (fast === undefined) return;
        taken++;
        const general = importGeneral([record]);
        expect(fast).toStrictEqual(general);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(general));
      }),
      { numRuns: 3000 },
    );
    // The records are near-valid on purpose; many must still be common enough for the fast path.
    expect(taken).toBeGreaterThan(100);
  });

  test.for<{ name: string; record: Record<string, unknown> }>([
    { name: "user text with run metadata", record: { id: "u1", role: "user", content: "hi", createdAt: "2026-01-01T10:00:00.000Z", mode: "agent", runId: "r1", agentId: "pm" } },
    { name: "user text parts", record: { id: "u2", role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] } },
    { name: "system", record: { id: "s1", role: "system", content: "rules" } },
    { name: "developer", record: { id: "s2", role: "developer", content: "rules" } },
    {
      name: "assistant with nested and flat calls, null content",
      record: { id: "a1", role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }, { id: "", name: "list" }] },
    },
    { name: "assistant text, numeric id, priority, pinned", record: { id: 9, role: "assistant", content: "done", priority: 2, pinned: true, includeInContext: true } },
    { name: "error record", record: { id: "e1", role: "assistant", content: "LLM failed", partType: "error" } },
    { name: "error flag", record: { id: "e2", role: "assistant", content: "LLM failed", error: true } },
    { name: "tool result with name, duration and error flag", record: { id: "t1", role: "tool", content: "out", tool_call_id: "c1", toolName: "read", duration: 12, is_error: true, partType: "tool_result" } },
    { name: "run completed", record: { id: "r1", role: "assistant", content: "result", partType: "task_completed" } },
    { name: "run abandoned", record: { id: "r2", role: "assistant", content: "partial", partType: "task_abandoned", reason: "budget" } },
    { name: "run terminated", record: { id: "r3", role: "assistant", content: "stopped", partType: "task_terminated", terminatedBy: "user" } },
  ])("$name takes the fast path and gives the general reader's items", ({ record }) => {
    const before = { ...storedReadCounts };
    const items = importStoredMessages([record]);
    expect({ fast: storedReadCounts.fast - before.fast, general: storedReadCounts.general - before.general }).toStrictEqual({ fast: 1, general: 0 });
    expect(JSON.stringify(items)).toBe(JSON.stringify(importGeneral([record])));
    expect(items).toStrictEqual(importGeneral([record]));
  });

  test.for<{ name: string; record: Record<string, unknown> }>([
    { name: "an unknown field (kept in metadata.extra)", record: { id: "u1", role: "user", content: "hi", note: "x" } },
    { name: "an image part", record: { id: "u1", role: "user", content: [{ type: "image_url", image_url: { url: "https://a/b.png" } }] } },
    { name: "an epoch date", record: { id: "u1", role: "user", content: "hi", createdAt: 1_767_261_600_000 } },
    { name: "object arguments", record: { id: "a1", role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: { a: 1 } } }] } },
    { name: "a result named in its content", record: { id: "t1", role: "tool", content: { tool_use_id: "c1", content: "out" } } },
    { name: "a MessageEntity", record: { id: "m1", body: { role: "user", content: "hi" } } },
  ])("$name goes to the general reader", ({ record }) => {
    const before = { ...storedReadCounts };
    importStoredMessages([record]);
    expect({ fast: storedReadCounts.fast - before.fast, general: storedReadCounts.general - before.general }).toStrictEqual({ fast: 0, general: 1 });
  });

  test("a bad record keeps the general reader's error, naming index, id and field", () => {
    const error = outcome(() => importStoredMessages([{ id: "u1", role: "user", content: "hi" }, { id: "a1", role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "" } }] }]));
    expect(error).toStrictEqual(outcome(() => importGeneral([{ id: "u1", role: "user", content: "hi" }, { id: "a1", role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "" } }] }])));
    expect(error).toMatchObject({ error: { name: "InvalidInputError", issues: [{ index: 1, id: "a1", path: ["tool_calls", 0, "function", "name"] }] } });
  });
});
