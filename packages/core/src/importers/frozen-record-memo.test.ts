import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { InvalidInputError } from "../errors/invalid-input-error.js";
import { deepFreeze } from "../model/deep-freeze.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { arbitraryInput } from "./__fixtures__/arbitrary-input.js";
import { isDeepFrozen } from "../model/is-deep-frozen.js";
import { importStoredMessages } from "./import-stored-messages.js";

const AT = "2026-01-01T10:00:00.000Z";

/** A small log in the shape the loops persist, each record a new object. */
function storedLog(): Record<string, unknown>[] {
  return [
    { id: "u1", role: "user", content: "USER_INPUT\nList the files", createdAt: AT, mode: "agent" },
    { id: "a1", role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }], createdAt: AT },
    { id: "t1", role: "tool", tool_call_id: "c1", toolName: "ls", content: "a.ts b.ts", partType: "tool_result", createdAt: AT },
    { id: "a2", role: "assistant", content: "Two files.", createdAt: AT },
  ];
}

const frozenLog = () => storedLog().map((record) => deepFreeze(record));

describe("importStoredMessages on records that cannot change", () => {
  test("a deep-frozen record imported again gives the same item objects, frozen", () => {
    const records = frozenLog();
    const first = importStoredMessages(records);
    const again = importStoredMessages(records.slice());
    expect(again).not.toBe(first);
    for (const [index, item] of again.entries()) expect(item).toBe(first[index]);
    expect(first.every((item) => isDeepFrozen(item))).toBe(true);
  });

  test("a log that grew gives the same objects for the records it had and new ones for the appended records", () => {
    const records = frozenLog();
    const before = importStoredMessages(records.slice(0, 2));
    const after = importStoredMessages(records);
    expect(after.slice(0, 2)).toStrictEqual(before);
    for (const [index, item] of after.slice(0, 2).entries()) expect(item).toBe(before[index]);
    expect(after.map((item) => item.id)).toStrictEqual(["u1", "a1", "t1", "a2"]);
    // The records appended are remembered too: the next load (grown again or not) reuses them.
    const third = importStoredMessages([...records, deepFreeze({ id: "u2", role: "user", content: "Thanks" })]);
    for (const [index, item] of third.slice(0, 4).entries()) expect(item).toBe(after[index]);
  });

  test.for<{ name: string; records: () => Record<string, unknown>[] }>([
    { name: "records that are not frozen", records: storedLog },
    { name: "a record frozen only at the top (its tool_calls can change)", records: () => [Object.freeze(storedLog()[1]!)] },
    { name: "a frozen record holding a Date (its time can still be set)", records: () => [deepFreeze({ id: "u1", role: "user", content: "hi", createdAt: new Date(0) })] },
  ])("$name are read again on every import", ({ records }) => {
    const given = records();
    const first = importStoredMessages(given);
    const again = importStoredMessages(given);
    expect(again).toStrictEqual(first);
    for (const [index, item] of again.entries()) expect(item).not.toBe(first[index]);
  });

  test("a record given twice in one list gives two items, as a record stored twice does", () => {
    const [user] = frozenLog();
    for (const input of [[user, user], [user, user, user]]) {
      const items = importStoredMessages(input);
      expect(items).toHaveLength(input.length);
      expect(new Set(items).size).toBe(input.length);
      expect(items.map((item) => item.id)).toStrictEqual(input.map(() => "u1"));
    }
    // Also when the repeat comes after a list imported before.
    const records = frozenLog();
    importStoredMessages(records);
    const repeated = importStoredMessages([...records, records[0]]);
    expect(repeated[4]).not.toBe(repeated[0]);
    expect(repeated[4]).toStrictEqual(repeated[0]);
  });

  test("a record refused is refused every time, and remembers nothing", () => {
    const bad = deepFreeze({ id: "x1", role: "robot", content: "beep" });
    const records = [...frozenLog(), bad];
    for (let attempt = 0; attempt < 2; attempt++) expect(() => importStoredMessages(records)).toThrow(InvalidInputError);
    expect(importStoredMessages(records.slice(0, 4)).map((item) => item.id)).toStrictEqual(["u1", "a1", "t1", "a2"]);
  });

  test("a pipeline keeps its work across imports: the second build counts only the appended item", async () => {
    const records = frozenLog();
    const counted: string[] = [];
    const tokenizer = { specificationVersion: "v1" as const, name: "spy", exact: true, count: (text: string) => {
        counted.push(text);
        return text.length;
      },
    };
    const pipeline = createPipeline();
    await pipeline.build(importStoredMessages(records.slice(0, 3)), { tokenizer, maxTokens: 10_000 });
    counted.length = 0;
    await pipeline.build(importStoredMessages(records), { tokenizer, maxTokens: 10_000 });
    expect(counted.filter((text) => text.includes("a.ts b.ts") || text.includes("List the files"))).toStrictEqual([]);
  });

  test("property: importing deep-frozen records, again and grown, reads as a fresh copy does", () => {
    const keys = ["id", "role", "content", "createdAt", "mode", "tool_calls", "tool_call_id", "partType", "kind", "summary", "coveredIds", "function", "name", "arguments", "type", "text", "fromId", "toId", "is_error"];
    const labels = ["user", "assistant", "system", "tool", "summary", "error", "tool_result", "function", "text", AT];
    const outcome = (input: unknown): unknown => {
      try {
        return importStoredMessages(input);
      } catch (error) {
        if (error instanceof InvalidInputError) return { issues: error.issues };
        throw error;
      }
    };
    fc.assert(
      fc.property(arbitraryInput(keys, labels), fc.array(fc.nat(), { maxLength: 6 }), (input, picks) => {
        if (!Array.isArray(input)) return;
        const frozen = deepFreeze(structuredClone(input));
        // Grown lists and repeats of its own records, as a store that only appends (or writes twice) gives.
        const lists: unknown[][] = [frozen.slice(0, frozen.length >> 1), frozen, frozen.slice()];
        let grown = frozen;
        for (const pick of picks) {
          grown = [...grown, grown.length === 0 ? deepFreeze({ id: `n${pick}`, role: "user", content: "n" }) : grown[pick % grown.length]];
          lists.push(grown);
        }
        for (const list of lists) expect(outcome(list)).toStrictEqual(outcome(structuredClone(list)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("isDeepFrozen", () => {
  test.for<{ name: string; value: unknown; expected: boolean }>([
    { name: "a string", value: "text", expected: true },
    { name: "null", value: null, expected: true },
    { name: "a frozen object of frozen arrays", value: deepFreeze({ a: [1, { b: "c" }] }), expected: true },
    { name: "a frozen object holding an unfrozen one", value: Object.freeze({ a: { b: 1 } }), expected: false },
    { name: "an unfrozen object", value: { a: 1 }, expected: false },
    { name: "a frozen Date", value: Object.freeze(new Date(0)), expected: false },
    { name: "a function", value: () => 1, expected: false },
  ])("$name: $expected", ({ value, expected }) => {
    expect(isDeepFrozen(value)).toBe(expected);
  });
});
