import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { wellFormed } from "./sanitize-item.js";

/** wellFormed as first written (forEach and Object.entries): what the faster walk must give. */
function wellFormedByEntries<T>(value: T): T {
  if (typeof value === "string") return (value.isWellFormed() ? value : value.toWellFormed()) as T;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((element, index) => {
      const fixed = wellFormedByEntries(element);
      if (fixed === element) return;
      copy ??= [...value];
      copy[index] = fixed;
    });
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, element] of Object.entries(value)) {
    if (key === "id" || key === "callId" || key === "createdAt" || key === "metadata" || key === "coveredIds" || key === "fromId" || key === "toId") continue;
    const fixed = wellFormedByEntries(element);
    if (fixed === element) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = fixed;
  }
  return (copy ?? value) as T;
}

// Strings with lone surrogates, pairs and plain text; keys that wellFormed leaves alone among others.
const text = fc.array(fc.constantFrom("a", " ", "é", "\uD83D", "\uDE00", "😀", "\uDBFF"), { maxLength: 6 }).map((parts) => parts.join(""));
const key = fc.constantFrom("id", "callId", "createdAt", "metadata", "coveredIds", "fromId", "toId", "text", "output", "toolCalls", "arguments", "0", "1");
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), tie("array"), tie("record")),
  array: fc.oneof(
    fc.array(tie("value"), { maxLength: 4 }),
    // A sparse array: its holes stay holes.
    fc.array(tie("value"), { maxLength: 4 }).map((elements) => {
      const sparse: unknown[] = [];
      elements.forEach((element, index) => {
        sparse[index * 2] = element;
      });
      return sparse;
    }),
  ),
  record: fc.dictionary(key, tie("value"), { maxKeys: 5, noNullPrototype: true }),
}));

describe("wellFormed", () => {
  test("gives what the walk with forEach and Object.entries gives, the same references where nothing changed, and leaves its input alone", () => {
    fc.assert(
      fc.property(value, fc.boolean(), (input, frozen) => {
        if (frozen) deepFreeze(input);
        const before = structuredClone(input);
        const fixed = wellFormed(input);
        const expected = wellFormedByEntries(input);
        expect(fixed).toStrictEqual(expected);
        expect(fixed === input).toBe(expected === input);
        expect(input).toStrictEqual(before);
      }),
      { numRuns: 1000 },
    );
  });

  test.for([
    [{ text: "a\uD800b", id: "\uD800" }, { text: "a\uFFFDb", id: "\uD800" }],
    [["ok", "\uDC00"], ["ok", "\uFFFD"]],
  ])("%j → %j", ([input, expected]) => {
    expect(wellFormed(input)).toStrictEqual(expected);
  });
});

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}
