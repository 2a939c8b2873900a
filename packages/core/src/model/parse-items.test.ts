import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { InvalidInputError } from "../errors/invalid-input-error.js";
import type { ItemInput } from "./item.js";
import { deepFreeze } from "./deep-freeze.js";
import { parseInput, parseItem, parseItems } from "./parse-items.js";

function thrown(input: unknown): InvalidInputError {
  try {
    parseItems(input as ItemInput[]);
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error("expected an InvalidInputError");
}

describe("parseItems", () => {
  test("fills in defaults: role, metadata, empty tool calls, tool-result kind and error flag", () => {
    expect(
      parseItems([
        { id: "a", type: "assistant" },
        { id: "t", type: "tool-result", callId: "c", output: "x" },
      ]),
    ).toEqual([
      { id: "a", type: "assistant", role: "assistant", text: "", toolCalls: [], metadata: {} },
      { id: "t", type: "tool-result", role: "tool", callId: "c", output: "x", isError: false, kind: "tool", metadata: {} },
    ]);
  });

  test.for([
    { case: "not an array", input: { id: "x" }, issue: { index: 0, id: undefined, path: [], message: "expected an array of items" } },
    { case: "a missing id", input: [{ type: "user", text: "hi" }], issue: { index: 0, id: undefined, path: ["id"], message: "Invalid input: expected string, received undefined" } },
    { case: "an unknown type", input: [{ id: "m1", type: "banana", text: "x" }], issue: { index: 0, id: "m1", path: ["type"], message: expect.stringMatching(/^unknown item type; expected one of user, assistant, system, tool-result/) } },
    { case: "a wrong field type", input: [{ id: "ok", type: "user", text: "x" }, { id: "m2", type: "user", text: 42 }], issue: { index: 1, id: "m2", path: ["text"], message: "Invalid input: expected string, received number" } },
    { case: "a createdAt that is not a string", input: [{ id: "m3", type: "user", text: "x", createdAt: 5 }], issue: { index: 0, id: "m3", path: ["createdAt"], message: "Invalid input: expected string, received number" } },
    { case: "a bad tool call", input: [{ id: "m4", type: "assistant", toolCalls: [{ id: "c", arguments: "{}" }] }], issue: { index: 0, id: "m4", path: ["toolCalls", 0, "name"], message: "Invalid input: expected string, received undefined" } },
    { case: "a null record", input: [null], issue: { index: 0, id: undefined, path: [], message: expect.any(String) } },
    // biome-ignore lint/suspicious/noSparseArray: a hole in the input must be reported, not skipped
    { case: "a hole in a sparse array", input: [, { id: "x", type: "user", text: "x" }], issue: { index: 0, id: undefined, path: [], message: expect.any(String) } },
    { case: "a file attachment with no content", input: [{ id: "f", type: "user", text: "see file", attachments: [{ type: "file", filename: "a.pdf" }] }], issue: { index: 0, id: "f", path: ["attachments", 0], message: "a file attachment needs data or a fileId" } },
    { case: "a reserved id", input: [{ id: "ctxpipe:system-prompt", type: "user", text: "a" }], issue: { index: 0, id: "ctxpipe:system-prompt", path: ["id"], message: 'ids starting with "ctxpipe:" are reserved for items ctxpipe synthesizes' } },
    { case: "a repeated id", input: [{ id: "d", type: "user", text: "a" }, { id: "d", type: "user", text: "b" }], issue: { index: 1, id: "d", path: ["id"], message: "duplicate id: item 0 has the same id and different content" } },
    { case: "a record stored twice", input: [{ id: "d", type: "user", text: "a" }, { id: "d", type: "user", text: "a" }], issue: { index: 1, id: "d", path: ["id"], message: "duplicate id: item 0 has the same id and the same content (stored twice)" } },
  ])("names the item and the field for $case", ({ input, issue }) => {
    const error = thrown(input);
    expect(error).toMatchObject({ name: "InvalidInputError", code: "INPUT_INVALID", source: "item", index: issue.index, id: issue.id, path: issue.path });
    expect(error.issues[0]).toEqual(issue);
    expect(error.message).toContain(`item[${issue.index}]`);
    if (issue.id !== undefined) expect(error.message).toContain(`(id "${issue.id}")`);
  });

  test("lists every problem of the input in one error", () => {
    const error = thrown([{ id: "a", type: "user" }, { id: "b", type: "user", text: "fine" }, { id: "c", type: "tool-result", output: "x" }]);
    expect(error.issues.map((issue) => [issue.index, issue.id, issue.path])).toEqual([
      [0, "a", ["text"]],
      [2, "c", ["callId"]],
    ]);
    expect(error.message.split("\n")).toEqual([
      'Invalid item[0] (id "a"), field text: Invalid input: expected string, received undefined',
      '  item[2] (id "c"), field callId: Invalid input: expected string, received undefined',
    ]);
  });

  test("never alters the caller's objects", () => {
    const input: ItemInput[] = [{ id: "u", type: "user", text: "hi" }];
    const copy = structuredClone(input);
    parseItems(input);
    expect(input).toEqual(copy);
  });
});

const said = (id: string, text: string, createdAt?: string): ItemInput => ({ id, type: "user", text, ...(createdAt === undefined ? {} : { createdAt }) });
/** What parseInput made of the input, in short: [id, text, input index] per item, and the records set aside. */
function outline(input: ItemInput[]) {
  const parsed = parseInput(input);
  return {
    items: parsed.items.map((item, position) => [item.id, (item as { text: string }).text, parsed.indexes[position]]),
    setAside: parsed.setAside.map((record) => [record.index, record.kind, record.keptIndex]),
  };
}

describe("parseItem on a plugin's frozen item", () => {
  // What a compression strategy hands back in an old result's place: a parsed item, copied with a new output, frozen.
  const placeholder = () => {
    const [result] = parseItems([{ id: "t", type: "tool-result", callId: "c", output: "a long output" }]);
    return deepFreeze({ ...result!, output: "[cleared]" });
  };

  test("is the object itself when it is deep-frozen and already what parsing makes of it", () => {
    const item = placeholder();
    expect(parseItem(item, 0)).toBe(item);
  });

  test.for([
    ["not frozen", () => ({ ...placeholder() })],
    ["frozen, holding an unfrozen object", () => Object.freeze({ ...placeholder(), metadata: {} })],
    ["missing a default", () => deepFreeze({ id: "t", type: "tool-result", callId: "c", output: "x" })],
    [
      "with its keys in another order",
      () => {
        const { output, ...rest } = placeholder();
        return deepFreeze({ output, ...rest });
      },
    ],
    ["with a key parsing leaves out", () => deepFreeze({ ...placeholder(), extra: 1 })],
  ] as const)("is a parsed copy when %s", ([, make]) => {
    const given = make();
    const parsed = parseItem(given as never, 0);
    expect(parsed).not.toBe(given);
    expect(parsed).toMatchObject({ id: "t", type: "tool-result" });
  });
});

describe("parseInput", () => {
  test.for([
    { case: "ids once each", input: [said("a", "1"), said("b", "2")], expected: { items: [["a", "1", 0], ["b", "2", 1]], setAside: [] } },
    { case: "an exact copy: the first record is kept", input: [said("a", "1"), said("b", "2"), said("a", "1")], expected: { items: [["a", "1", 0], ["b", "2", 1]], setAside: [[2, "copy", 0]] } },
    { case: "an edit: the last version, at the first one's position", input: [said("a", "1"), said("b", "2"), said("a", "1 fixed")], expected: { items: [["a", "1 fixed", 2], ["b", "2", 1]], setAside: [[0, "earlier-version", 2]] } },
    {
      case: "an edit stored twice: the first copy of the last version is kept",
      input: [said("a", "1"), said("a", "1 fixed"), said("b", "2"), said("a", "1 fixed")],
      expected: { items: [["a", "1 fixed", 1], ["b", "2", 2]], setAside: [[0, "earlier-version", 1], [3, "copy", 1]] },
    },
    {
      case: "an edit undone: the last version wins, the first one counts as earlier",
      input: [said("a", "1"), said("a", "2"), said("a", "1")],
      expected: { items: [["a", "1", 2]], setAside: [[0, "earlier-version", 2], [1, "earlier-version", 2]] },
    },
  ])("$case", ({ input, expected }) => {
    expect(outline(input)).toEqual(expected);
  });

  test("a createdAt that is not a date is kept, with one warning naming the item's index, id and value", () => {
    const parsed = parseInput([said("m0", "a", "2026-01-01T00:00:00Z"), said("m1", "b", "yesterday"), said("m2", "c", "")]);
    expect(parsed.items.map((item) => item.createdAt)).toEqual(["2026-01-01T00:00:00Z", "yesterday", ""]);
    expect(parsed.warnings).toEqual([
      '[ctxpipe] item 1 (id "m1"): createdAt "yesterday" is not a date; it keeps its position',
      '[ctxpipe] item 2 (id "m2"): createdAt "" is not a date; it keeps its position',
    ]);
  });

  test("never refuses a repeated id, and keeps one item per id (property)", () => {
    const record = fc.record({ id: fc.constantFrom("a", "b", "c", "d"), text: fc.constantFrom("x", "y") });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (records) => {
        const input = records.map(({ id, text }) => said(id, text));
        const parsed = parseInput(input);
        const ids = [...new Set(records.map((entry) => entry.id))];
        // Each id once, in order of first appearance, holding its last version's content.
        expect(parsed.items.map((item) => item.id)).toEqual(ids);
        for (const item of parsed.items) expect((item as { text: string }).text).toBe(records.findLast((entry) => entry.id === item.id)!.text);
        // Every input record is either an item or set aside, once.
        expect([...parsed.indexes, ...parsed.setAside.map((entry) => entry.index)].sort((left, right) => left - right)).toEqual(records.map((_, index) => index));
      }),
    );
  });
});
