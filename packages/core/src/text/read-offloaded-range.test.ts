import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import { cutMarker } from "./cut-marker.js";
import { DEFAULT_RETRIEVE_MAX_CHARS, readOffloadedRange } from "./read-offloaded-range.js";

const HANDLE = "ctx_0123456789abcdef";

// The reply's first line and the text after it.
function split(reply: string): { head: string; part: string } {
  const newline = reply.indexOf("\n");
  return { head: reply.slice(0, newline), part: reply.slice(newline + 1) };
}

describe("readOffloadedRange", () => {
  const text = "abcdefghij";
  test.for([
    {
      name: "without a range, the first maxChars characters and how to read on",
      options: { maxChars: 4 },
      expected: `[retrieve_context ${HANDLE}: characters 0 to 4 of 10 (4 characters). The text goes on for 6 more characters: call retrieve_context with {"handle":"${HANDLE}","from":4} to read on.]\nabcd`,
    },
    {
      name: "a range within the cap, whole",
      options: { from: 2, to: 5, maxChars: 4 },
      expected: `[retrieve_context ${HANDLE}: characters 2 to 5 of 10 (3 characters). The text goes on for 5 more characters: call retrieve_context with {"handle":"${HANDLE}","from":5} to read on.]\ncde`,
    },
    {
      name: "a range longer than the cap, cut at the cap, with the call for the rest of it",
      options: { from: 1, to: 9, maxChars: 4 },
      expected: `[retrieve_context ${HANDLE}: characters 1 to 5 of 10 (4 characters). 4 more characters of the range asked for remain (at most 4 per call): call retrieve_context with {"handle":"${HANDLE}","from":5,"to":9} for the next part.]\nbcde`,
    },
    {
      name: "a range past the end, stopped at the end",
      options: { from: 8, to: 50 },
      expected: `[retrieve_context ${HANDLE}: characters 8 to 10 of 10 (2 characters). This is the end of the text.]\nij`,
    },
    {
      name: "from at the end: nothing, and it says so",
      options: { from: 10 },
      expected: `[retrieve_context ${HANDLE}: characters 10 to 10 of 10 (0 characters). This is the end of the text.]\n`,
    },
    {
      name: "one character, in the singular",
      options: { from: 3, to: 4 },
      expected: `[retrieve_context ${HANDLE}: characters 3 to 4 of 10 (1 character). The text goes on for 6 more characters: call retrieve_context with {"handle":"${HANDLE}","from":4} to read on.]\nd`,
    },
  ])("$name", ({ options, expected }) => {
    expect(readOffloadedRange(text, HANDLE, options)).toBe(expected);
  });

  test("the default cap is DEFAULT_RETRIEVE_MAX_CHARS (20,000)", () => {
    const long = "0123456789".repeat(5000);
    expect(DEFAULT_RETRIEVE_MAX_CHARS).toBe(20_000);
    expect(split(readOffloadedRange(long, HANDLE)).part).toBe(long.slice(0, 20_000));
  });

  test("a cap never splits a surrogate pair, unless the pair is all it could return", () => {
    expect(split(readOffloadedRange("ab😀cd", HANDLE, { maxChars: 3 })).part).toBe("ab");
    expect(split(readOffloadedRange("😀", HANDLE, { maxChars: 1 })).part).toBe("\ud83d");
  });

  test("figures are grouped the same whatever the locale", () => {
    expect(split(readOffloadedRange("x".repeat(1_234_567), HANDLE, { from: 1000, to: 1001 })).head).toBe(
      `[retrieve_context ${HANDLE}: characters 1,000 to 1,001 of 1,234,567 (1 character). The text goes on for 1,233,566 more characters: call retrieve_context with {"handle":"${HANDLE}","from":1001} to read on.]`,
    );
  });

  test("the range a cut marker names reads back exactly what was cut", () => {
    const original = "head ".repeat(100) + "MIDDLE ".repeat(300) + "tail ".repeat(100);
    const from = 500;
    const to = original.length - 500;
    const marker = cutMarker({ handle: HANDLE, from, to, chars: to - from, tokens: 300 });
    const asked = JSON.parse(/with (\{.*?\}) to read them/.exec(marker)?.[1] ?? "null") as { handle: string; from: number; to: number };
    expect(split(readOffloadedRange(original, asked.handle, { from: asked.from, to: asked.to })).part).toBe(original.slice(from, to));
  });

  test.for([
    { name: "from past the end", options: { from: 11 }, message: `"from" (11) is past the end of ${HANDLE}, which holds 10 characters` },
    { name: "to before from", options: { from: 5, to: 2 }, message: '"to" (2) is before "from" (5)' },
  ])("$name is an error the model can act on", ({ options, message }) => {
    expect(() => readOffloadedRange(text, HANDLE, options)).toThrow(new Error(message));
  });

  test.for([0, -1, 2.5, Number.NaN])("maxChars %s is a PluginOptionsError naming maxChars", (maxChars) => {
    expect(() => readOffloadedRange(text, HANDLE, { maxChars })).toThrow(PluginOptionsError);
    expect(() => readOffloadedRange(text, HANDLE, { maxChars })).toThrow(/maxChars: must be a positive integer/);
  });

  test("property: following each reply's next call reads the whole text back exactly, never more than maxChars at a time", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), fc.integer({ min: 2, max: 50 }), (original, maxChars) => {
        let read = "";
        let from: number | undefined;
        for (let calls = 0; calls <= original.length + 1; calls++) {
          const { head, part } = split(readOffloadedRange(original, HANDLE, from === undefined ? { maxChars } : { from, maxChars }));
          expect(part.length).toBeLessThanOrEqual(maxChars);
          read += part;
          const next = /"from":(\d+)/.exec(head);
          if (next === null) break;
          from = Number(next[1]);
        }
        expect(read).toBe(original);
      }),
    );
  });

  test("property: a range read in parts through the replies' next calls is exactly that slice of the text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 200 }).chain((original) =>
          fc.tuple(fc.constant(original), fc.nat(original.length), fc.nat(original.length), fc.integer({ min: 2, max: 30 })),
        ),
        ([original, a, b, maxChars]) => {
          const [start, end] = a <= b ? [a, b] : [b, a];
          let read = "";
          let asked: { from: number; to: number } | undefined = { from: start, to: end };
          for (let calls = 0; asked !== undefined && calls <= original.length + 1; calls++) {
            const { head, part } = split(readOffloadedRange(original, HANDLE, { ...asked, maxChars }));
            read += part;
            const next = /"from":(\d+),"to":(\d+)/.exec(head);
            asked = next === null ? undefined : { from: Number(next[1]), to: Number(next[2]) };
          }
          expect(read).toBe(original.slice(start, end));
        },
      ),
    );
  });

  test("the text given is not changed, and the same call gives the same bytes", () => {
    const original = "stay the same";
    expect(readOffloadedRange(original, HANDLE, { from: 2, maxChars: 3 })).toBe(readOffloadedRange(original, HANDLE, { from: 2, maxChars: 3 }));
    expect(original).toBe("stay the same");
  });
});
