import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { itemSchema } from "./item.js";
import { itemParseCounts, parseItemFast } from "./parse-item-fast.js";
import { parseItems } from "./parse-items.js";

const odd = fc.constantFrom<unknown>(null, undefined, "", 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, [], {}, "x");
const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: value }, { weight: 1, arbitrary: odd });
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("hello", "中文"));
const call = fc.record(
  { id: maybe(text), name: maybe(fc.constantFrom("read", "")), arguments: maybe(fc.constantFrom("{}", "{broken")), kind: maybe(fc.constantFrom("tool", "skill")), status: fc.constant("pending") },
  { requiredKeys: ["id", "name", "arguments", "kind"] },
);
const metadata = fc.record(
  {
    mode: maybe(text),
    runId: maybe(text),
    agentId: maybe(text),
    priority: maybe(fc.constantFrom(0, 3, -1.5)),
    includeInContext: maybe(fc.boolean()),
    pinned: maybe(fc.boolean()),
    extra: fc.constant({ note: "x" }),
    other: fc.constant(1),
  },
  { requiredKeys: [] },
).chain((record) => fc.constantFrom(Object.fromEntries(Object.entries(record).filter(([key]) => key !== "extra" && key !== "other")), Object.fromEntries(Object.entries(record).filter(([key]) => key !== "extra" && key !== "other")), record));
const roles = { user: "user", system: "system", assistant: "assistant", "tool-result": "tool", error: "assistant", "task-completed": "assistant", "task-abandoned": "assistant", "task-terminated": "assistant", summary: "system" } as const;
/** Each type's own fields (plus a foreign one now and then). */
const OWN: Record<keyof typeof roles, string[]> = {
  user: ["text"],
  system: ["text"],
  assistant: ["text", "toolCalls"],
  "tool-result": ["callId", "toolName", "output", "isError", "durationMs", "kind"],
  error: ["text"],
  "task-completed": ["text"],
  "task-abandoned": ["reason", "text"],
  "task-terminated": ["terminatedBy", "text"],
  summary: ["text"],
};
const item = fc.tuple(fc.constantFrom(...(Object.keys(roles) as Array<keyof typeof roles>)), fc.constantFrom("", "", "", "", "", "attachments", "code", "kind", "text")).chain(([type, foreign]) =>
  fc.record(
    {
      id: maybe(fc.constantFrom("i1", "i2")),
      createdAt: maybe(fc.constantFrom("2026-01-01T10:00:00.000Z", "later")),
      metadata: maybe(metadata),
      type: fc.oneof({ weight: 12, arbitrary: fc.constant(type) }, { weight: 1, arbitrary: odd }),
      role: fc.oneof({ weight: 12, arbitrary: fc.constant(roles[type]) }, { weight: 1, arbitrary: fc.constantFrom("user", "tool", 1) }),
      text: maybe(text),
      toolCalls: maybe(fc.array(fc.oneof({ weight: 8, arbitrary: call }, { weight: 1, arbitrary: odd }), { maxLength: 3 })),
      callId: maybe(fc.constantFrom("c1", "")),
      toolName: maybe(text),
      output: maybe(text),
      isError: maybe(fc.boolean()),
      durationMs: maybe(fc.constantFrom(0, 12.5, -1)),
      kind: maybe(fc.constantFrom("tool", "skill")),
      reason: maybe(text),
      terminatedBy: maybe(text),
      attachments: fc.constant([]),
      code: fc.constant("E1"),
    },
    { requiredKeys: ["id", "metadata", "type", "role"] },
  ).map((record) => Object.fromEntries(Object.entries(record).filter(([key]) => ["id", "createdAt", "metadata", "type", "role", foreign, ...OWN[type]].includes(key)))),
);

describe("parseItemFast", () => {
  test("gives what the item schema gives, when it gives anything", () => {
    let taken = 0;
    fc.assert(
      fc.property(item, (input) => {
        const fast = parseItemFast(input);
        if (fast === undefined) return;
        taken++;
        const parsed = itemSchema.safeParse(input);
        expect(parsed.success).toBe(true);
        expect(fast).toStrictEqual(parsed.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
        // A new object, as the schema gives: the input is not handed back.
        expect(fast).not.toBe(input);
      }),
      { numRuns: 5000 },
    );
    expect(taken).toBeGreaterThan(100);
  });

  test("parseItems takes it for canonical items and the schema for the rest", () => {
    const before = { ...itemParseCounts };
    const items = parseItems([
      { id: "u1", metadata: {}, type: "user", role: "user", text: "hi" },
      { id: "a1", metadata: { mode: "agent" }, type: "assistant", role: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}", kind: "tool" }] },
      { id: "t1", metadata: {}, type: "tool-result", role: "tool", callId: "c1", output: "ok", isError: false, kind: "tool" },
      { id: "u2", type: "user", text: "no role or metadata: the schema fills them" },
    ]);
    expect({ fast: itemParseCounts.fast - before.fast, schema: itemParseCounts.schema - before.schema }).toStrictEqual({ fast: 3, schema: 1 });
    expect(items.at(-1)).toStrictEqual({ id: "u2", metadata: {}, type: "user", role: "user", text: "no role or metadata: the schema fills them" });
  });
});
