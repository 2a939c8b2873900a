import type { JsonlStore, OffloadedRecord } from "@ctxpipe/store";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { DEFAULT_RETRIEVE_MAX_CHARS, offloadedTextTool, readRange, retrieveContextTool } from "./retrieve-context-tool.js";

const HANDLE = "ctx_0123456789abcdef";
const context = { conversationId: "c", callId: "call-1", interrupted: false, signal: new AbortController().signal };

describe("readRange", () => {
  const text = "abcdefghij";
  test.for([
    {
      name: "the default range is the first maxChars characters",
      from: undefined,
      to: undefined,
      maxChars: 4,
      expected: `[retrieve_context ${HANDLE}: characters 0 to 4 of 10 (4 characters). The text goes on for 6 more characters: call retrieve_context with {"handle":"${HANDLE}","from":4} to read on.]\nabcd`,
    },
    {
      name: "a range within the cap is returned whole",
      from: 2,
      to: 5,
      maxChars: 4,
      expected: `[retrieve_context ${HANDLE}: characters 2 to 5 of 10 (3 characters). The text goes on for 5 more characters: call retrieve_context with {"handle":"${HANDLE}","from":5} to read on.]\ncde`,
    },
    {
      name: "a range longer than the cap is cut at the cap, and the reply says how to get the rest of it",
      from: 1,
      to: 9,
      maxChars: 4,
      expected: `[retrieve_context ${HANDLE}: characters 1 to 5 of 10 (4 characters). 4 more characters of the range asked for remain (at most 4 per call): call retrieve_context with {"handle":"${HANDLE}","from":5,"to":9} for the next part.]\nbcde`,
    },
    {
      name: "a range past the end stops at the end",
      from: 8,
      to: 50,
      maxChars: 4,
      expected: `[retrieve_context ${HANDLE}: characters 8 to 10 of 10 (2 characters). This is the end of the text.]\nij`,
    },
    {
      name: "from at the end returns nothing, and says so",
      from: 10,
      to: undefined,
      maxChars: 4,
      expected: `[retrieve_context ${HANDLE}: characters 10 to 10 of 10 (0 characters). This is the end of the text.]\n`,
    },
  ])("$name", ({ from, to, maxChars, expected }) => {
    expect(readRange(text, HANDLE, from, to, maxChars)).toBe(expected);
  });

  test("a cap never splits a surrogate pair", () => {
    const emoji = "ab😀cd";
    expect(readRange(emoji, HANDLE, 0, undefined, 3).split("\n")[1]).toBe("ab");
  });

  test("figures are grouped the same whatever the locale", () => {
    expect(readRange("x".repeat(1_234_567), HANDLE, 1000, 1001, 20_000).split("\n")[0]).toBe(
      `[retrieve_context ${HANDLE}: characters 1,000 to 1,001 of 1,234,567 (1 character). The text goes on for 1,233,566 more characters: call retrieve_context with {"handle":"${HANDLE}","from":1001} to read on.]`,
    );
  });

  test("property: following the replies' next ranges reads the whole text back exactly, never more than maxChars at a time", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), fc.integer({ min: 2, max: 50 }), (text, maxChars) => {
        let read = "";
        let from: number | undefined;
        for (let calls = 0; calls <= text.length + 1; calls++) {
          const reply = readRange(text, HANDLE, from, undefined, maxChars);
          const newline = reply.indexOf("\n");
          const part = reply.slice(newline + 1);
          expect(part.length).toBeLessThanOrEqual(maxChars);
          read += part;
          const next = /"from":(\d+)/.exec(reply.slice(0, newline));
          if (next === null) break;
          from = Number(next[1]);
        }
        expect(read).toBe(text);
      }),
    );
  });
});

describe("the retrieve_context tool", () => {
  const record: OffloadedRecord = { handle: HANDLE, itemId: "call-9", text: "0123456789".repeat(5000), createdAt: "2026-01-01T00:00:00.000Z" };
  const tool = offloadedTextTool(async (handle) => (handle === HANDLE ? record : undefined));

  test("its definition: name, category, a JSON schema with handle, from and to", () => {
    expect({ name: tool.name, category: tool.category, parameters: tool.parameters }).toStrictEqual({
      name: "retrieve_context",
      category: "context",
      parameters: {
        type: "object",
        properties: {
          handle: { type: "string", description: expect.any(String) },
          from: { type: "integer", minimum: 0, description: expect.any(String) },
          to: { type: "integer", minimum: 0, description: expect.any(String) },
        },
        required: ["handle"],
        additionalProperties: false,
      },
    });
    expect(tool.description).toContain("the reply says which range it holds and how to ask for the next part");
  });

  test("without a range it returns the first 20,000 characters", async () => {
    const reply = (await tool.run({ handle: HANDLE }, context)) as string;
    expect(reply.slice(reply.indexOf("\n") + 1)).toBe(record.text.slice(0, DEFAULT_RETRIEVE_MAX_CHARS));
  });

  test("maxChars given as a function is asked at each call", async () => {
    let limit = 3;
    const sized = offloadedTextTool(async () => record, () => limit);
    expect(((await sized.run({ handle: HANDLE }, context)) as string).split("\n")[1]).toBe("012");
    limit = 5;
    expect(((await sized.run({ handle: HANDLE }, context)) as string).split("\n")[1]).toBe("01234");
  });

  test("a range returns exactly that part of the original", async () => {
    const reply = (await tool.run({ handle: HANDLE, from: 12_345, to: 12_400 }, context)) as string;
    expect(reply.slice(reply.indexOf("\n") + 1)).toBe(record.text.slice(12_345, 12_400));
  });

  test.for([
    { name: "an unknown handle", args: { handle: "ctx_ffffffffffffffff" }, message: 'no text is kept under the handle "ctx_ffffffffffffffff" in this conversation; use a handle exactly as a marker or placeholder names it' },
    { name: "no handle", args: { from: 3 }, message: '"handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")' },
    { name: "a negative from", args: { handle: HANDLE, from: -1 }, message: '"from" must be a whole number of at least 0, got -1' },
    { name: "a fractional to", args: { handle: HANDLE, to: 2.5 }, message: '"to" must be a whole number of at least 0, got 2.5' },
    { name: "from past the end", args: { handle: HANDLE, from: 60_000 }, message: `"from" (60000) is past the end of ${HANDLE}, which holds 50,000 characters` },
    { name: "to before from", args: { handle: HANDLE, from: 10, to: 5 }, message: '"to" (5) is before "from" (10)' },
  ])("$name is an error that says what is wrong", async ({ args, message }) => {
    await expect(Promise.resolve().then(() => tool.run(args, context))).rejects.toStrictEqual(new Error(message));
  });
});

describe("retrieveContextTool(store, conversationId)", () => {
  test("reads the store's offloaded text of that conversation", async () => {
    const { store } = tempStore();
    await store.appendOffloaded("c", [{ handle: HANDLE, itemId: "t", text: "whole text", createdAt: "2026-01-01T00:00:00.000Z" }]);
    const tool = retrieveContextTool(store, "c", { maxChars: 5 });
    expect(await tool.run({ handle: HANDLE, from: 6 }, context)).toBe(`[retrieve_context ${HANDLE}: characters 6 to 10 of 10 (4 characters). This is the end of the text.]\ntext`);
    await expect(Promise.resolve().then(() => retrieveContextTool(store, "other").run({ handle: HANDLE }, context))).rejects.toThrow(`"${HANDLE}"`);
  });

  test.for([
    { name: "a store without loadOffloaded", make: () => retrieveContextTool({} as JsonlStore, "c"), message: /store: has no loadOffloaded/ },
    { name: "an empty conversation id", make: () => retrieveContextTool(tempStore().store, " "), message: /conversationId: must be a non-empty string/ },
    { name: "maxChars 0", make: () => retrieveContextTool(tempStore().store, "c", { maxChars: 0 }), message: /maxChars: must be a positive integer, got 0/ },
  ])("$name is a PluginOptionsError naming the field", ({ make, message }) => {
    expect(make).toThrow(message);
  });
});
