import { describe, expect, test } from "vitest";
import { InvalidInputError } from "../errors/invalid-input-error.js";
import type { ItemInput } from "./item.js";
import { parseItems } from "./parse-items.js";

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
    { case: "a bad date", input: [{ id: "m3", type: "user", text: "x", createdAt: "yesterday" }], issue: { index: 0, id: "m3", path: ["createdAt"], message: "must be a date string that Date.parse understands (ISO 8601 recommended)" } },
    { case: "a bad tool call", input: [{ id: "m4", type: "assistant", toolCalls: [{ id: "c", arguments: "{}" }] }], issue: { index: 0, id: "m4", path: ["toolCalls", 0, "name"], message: "Invalid input: expected string, received undefined" } },
    { case: "a null record", input: [null], issue: { index: 0, id: undefined, path: [], message: expect.any(String) } },
    // biome-ignore lint/suspicious/noSparseArray: a hole in the input must be reported, not skipped
    { case: "a hole in a sparse array", input: [, { id: "x", type: "user", text: "x" }], issue: { index: 0, id: undefined, path: [], message: expect.any(String) } },
    { case: "a file attachment with no content", input: [{ id: "f", type: "user", text: "see file", attachments: [{ type: "file", filename: "a.pdf" }] }], issue: { index: 0, id: "f", path: ["attachments", 0], message: "a file attachment needs data or a fileId" } },
    { case: "a reserved id", input: [{ id: "ctxpipe:system-prompt", type: "user", text: "a" }], issue: { index: 0, id: "ctxpipe:system-prompt", path: ["id"], message: 'ids starting with "ctxpipe:" are reserved for items ctxpipe synthesizes' } },
    { case: "a duplicate id", input: [{ id: "d", type: "user", text: "a" }, { id: "d", type: "user", text: "b" }], issue: { index: 1, id: "d", path: ["id"], message: "duplicate id: item 0 has the same id and different content" } },
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
