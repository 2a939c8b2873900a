// Property: for any text, the default backend, js-tiktoken and tiktoken's Rust implementation agree,
// for both encodings. Strings mix arbitrary code points (lone surrogates included) with the pieces
// tokenizers get wrong: special-token look-alikes, contractions, digit runs, CRLF, whitespace runs,
// byte-order marks, NEL, combining marks, ZWJ emoji and flags.
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { withoutNewerCodePoints } from "./__fixtures__/newer-unicode.js";
import { openReferenceTokenizers } from "./__fixtures__/reference-tokenizer.js";
import { ENCODING_NAMES } from "./encodings/encoding-name.js";
import { getEncoding } from "./get-encoding.js";

const reference = openReferenceTokenizers();
afterAll(() => reference.free());

const TRICKY_PIECES = [
  "<|endoftext|>",
  "<|im_start|>",
  "<|im_end|>",
  "<|endofprompt|>",
  "<|fim_prefix|>",
  "<|",
  "|>",
  "'s",
  "'S",
  "'ll",
  "'LL",
  "'Re",
  "'ve",
  "'d",
  "'",
  "0",
  "12",
  "123",
  "4567",
  "3.14",
  "\r\n",
  "\r",
  "\n",
  "\n\n\n",
  " ",
  "  ",
  "        ",
  "\t",
  "\u00a0",
  "\u3000",
  "\u0085",
  "\u2028",
  "\ufeff",
  "\u200d",
  "\u0301",
  "é",
  "ǅ",
  "ß",
  "İ",
  "ſ",
  "中文",
  "日本語",
  "한국어",
  "Привет",
  "😀",
  "👍🏽",
  "👨‍👩‍👧",
  "🇫🇷",
  "Hello",
  "HELLO",
  "hello",
  "camelCase",
  "snake_case",
  "{",
  '"key":',
  "/",
  "//",
  "=>",
  "...",
  "\ud800",
  "\udfff",
];

const trickyText = fc
  .array(fc.oneof(fc.constantFrom(...TRICKY_PIECES), fc.string({ unit: "binary", maxLength: 3 })), { maxLength: 40 })
  .map((pieces) => pieces.join(""));
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(..."\u0000\t\n\r\u000b\u000c \u0085\u00a0\u2000\u3000\ufeffa1.'"), maxLength: 60 }),
  trickyText,
);

describe.for(ENCODING_NAMES)("%s", (encoding) => {
  const fast = getEncoding(encoding);
  const jsTiktoken = getEncoding(encoding, { backend: "js-tiktoken" });

  test("the default backend, js-tiktoken and the Rust reference agree on any text", () => {
    fc.assert(
      fc.property(anyText.map(withoutNewerCodePoints), (text) => {
        const expected = reference.count(encoding, text);
        expect(fast.count(text)).toBe(expected);
        expect(jsTiktoken.count(text)).toBe(expected);
      }),
      { numRuns: 1500 },
    );
  });

  // Long runs without a break are single pieces merged byte pair by byte pair (the heap path). Only
  // the default backend: js-tiktoken needs seconds per piece this long.
  test("long unbroken runs are counted exactly", () => {
    const unit = fc.constantFrom("a", "ab", "Zz", "中", "中文", "=", "-=", "é", "😀", "ſ", "\u0301", " ", "x1");
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, fc.integer({ min: 1, max: 1500 })), { minLength: 1, maxLength: 3 }), (runs) => {
        const text = runs.map(([piece, times]) => piece.repeat(times)).join("");
        expect(fast.count(text)).toBe(reference.count(encoding, text));
      }),
      { numRuns: 120 },
    );
  });
});
