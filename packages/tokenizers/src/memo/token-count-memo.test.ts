import { CtxpipeError, ERROR_CODES, estimatingTokenizer, PluginOptionsError } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { MIXED_CORPUS } from "../__fixtures__/mixed-corpus.js";
import { createApproximateTokenizer } from "../approximate/approximate-tokenizer.js";
import { createTokenizer } from "../create-tokenizer.js";
import type { ExactTokenizer } from "../exact-tokenizer.js";
import { getEncoding } from "../get-encoding.js";
import { countKey } from "./count-key.js";
import { DEFAULT_MEMO_MIN_LENGTH, TokenCountMemo, type TokenCountRecord } from "./token-count-memo.js";

const o200k = getEncoding("o200k_base");
const LONG = MIXED_CORPUS.map(({ text }) => text).filter((text) => text.length >= DEFAULT_MEMO_MIN_LENGTH);
const SHORT = "A short reply.";

/** o200k_base, recording every text it tokenizes. */
function countingBase(): { base: ExactTokenizer; counted: string[] } {
  const counted: string[] = [];
  const base: ExactTokenizer = Object.freeze({
    ...o200k,
    count(text: string) {
      counted.push(text);
      return o200k.count(text);
    },
  });
  return { base, counted };
}

const recordOf = (text: string, encoding = "o200k_base"): TokenCountRecord => ({ encoding, key: countKey(text), tokens: getEncoding(encoding as "o200k_base").count(text) });

describe("TokenCountMemo", () => {
  test("counts a long text once and hands its record over once; short texts are counted every time and get none", () => {
    const { base, counted } = countingBase();
    const memo = new TokenCountMemo(base);
    const [first, second] = LONG;
    expect([first, first, second, SHORT, SHORT, first].map((text) => memo.tokenizer.count(text!))).toEqual([first, first, second, SHORT, SHORT, first].map((text) => o200k.count(text!)));
    expect(counted).toEqual([first, second, SHORT, SHORT]);
    expect(memo.takeNew()).toEqual([recordOf(first!), recordOf(second!)]);
    expect(memo.takeNew()).toEqual([]);
    expect(memo.size).toBe(2);
  });

  test("a memo given the records of another process tokenizes none of their texts, and records nothing again", () => {
    const earlier = new TokenCountMemo(o200k);
    for (const text of LONG) earlier.tokenizer.count(text);
    const records = earlier.takeNew();
    expect(records).toHaveLength(LONG.length);

    const { base, counted } = countingBase();
    const memo = new TokenCountMemo(base);
    expect(memo.add(records)).toEqual({ added: LONG.length, known: 0, otherEncoding: 0, skipped: [] });
    expect(LONG.map((text) => memo.tokenizer.count(text))).toEqual(LONG.map((text) => o200k.count(text)));
    expect(counted).toEqual([]);
    expect(memo.takeNew()).toEqual([]);
  });

  test("a text that changed is counted afresh: the old record never matches it", () => {
    const text = LONG[0]!;
    const { base, counted } = countingBase();
    const memo = new TokenCountMemo(base);
    memo.add([recordOf(text)]);
    const edited = `${text} (edited)`;
    expect(memo.tokenizer.count(edited)).toBe(o200k.count(edited));
    // Same length, one character different.
    const swapped = `x${text.slice(1)}`;
    expect(memo.tokenizer.count(swapped)).toBe(o200k.count(swapped));
    expect(counted).toEqual([edited, swapped]);
    expect(memo.takeNew()).toEqual([recordOf(edited), recordOf(swapped)]);
  });

  test.for([
    ["minLength 0 files every text, the empty one included", 0, ["", SHORT]],
    ["minLength 20 leaves a 14-character text out", 20, []],
  ] as const)("%s", ([, minLength, recorded]) => {
    const memo = new TokenCountMemo(o200k, { minLength });
    memo.tokenizer.count("");
    memo.tokenizer.count(SHORT);
    expect(memo.takeNew()).toEqual(recorded.map((text) => recordOf(text)));
  });

  test("over an approximation, records keep the exact base count, never the factored one, through calibration", () => {
    const { base, counted } = countingBase();
    const approximation = createApproximateTokenizer({ kind: "approximation", model: "claude-sonnet-4", base, factor: 1.2, safetyMargin: 0.1 });
    const memo = new TokenCountMemo(approximation);
    const [text, later] = LONG;
    expect(memo.tokenizer).toMatchObject({ exact: false, kind: "approximation", model: "claude-sonnet-4", factor: 1.2, safetyMargin: 0.1, name: approximation.name });
    expect(memo.tokenizer.count(text!)).toBe(approximation.count(text!));
    const calibrated = memo.tokenizer.calibrate({ counted: 1000, reported: 1400 });
    expect(calibrated.factor).not.toBe(1.2);
    expect(calibrated.count(text!)).toBe(Math.ceil(o200k.count(text!) * calibrated.factor * 1.1 - 1e-9));
    calibrated.count(later!);
    // The approximation counted `text` once for itself; the memo's base once for both tokenizers.
    expect(counted.filter((counted) => counted === text)).toHaveLength(2);
    expect(memo.takeNew()).toEqual([recordOf(text!), recordOf(later!)]);

    // A later process loads the exact counts and applies its own factor on top.
    const next = new TokenCountMemo(createTokenizer("claude-sonnet-4"));
    next.add([recordOf(text!)]);
    expect(next.tokenizer.count(text!)).toBe(createTokenizer("claude-sonnet-4").count(text!));
  });

  test("an exact memo's tokenizer is the encoding's, under the same name, the same object every time", () => {
    const memo = new TokenCountMemo(getEncoding("cl100k_base", { backend: "js-tiktoken" }));
    expect(memo.tokenizer).toMatchObject({ specificationVersion: "v1", name: "cl100k_base", exact: true, backend: "js-tiktoken" });
    expect(memo.encoding).toBe("cl100k_base");
    expect(memo.tokenizer).toBe(memo.tokenizer);
    expect(Object.isFrozen(memo.tokenizer)).toBe(true);
  });

  test("add() files good records and reports the rest by index and field, without throwing", () => {
    const [text, other] = LONG;
    const good = recordOf(text!);
    const memo = new TokenCountMemo(o200k);
    const load = memo.add([
      good,
      null,
      "o200k_base 12",
      { ...good, encoding: "" },
      { ...good, encoding: "x".repeat(65) },
      { ...good, key: "not a key" },
      { ...good, key: `${good.key}x` },
      { encoding: "o200k_base", key: countKey(other!) },
      { ...good, tokens: -1 },
      { ...good, tokens: 1.5 },
      { ...good, tokens: "12" },
      { ...recordOf(other!), tokens: other!.length * 3 + 1 },
      { ...recordOf(other!), tokens: 0 },
      recordOf(text!, "cl100k_base"),
      { ...good, tokens: good.tokens + 1 },
      [good],
    ]);
    expect(load).toEqual({
      added: 1,
      known: 1,
      otherEncoding: 1,
      skipped: [
        { index: 1, field: "record", reason: "expected { encoding, key, tokens }, got null" },
        { index: 2, field: "record", reason: 'expected { encoding, key, tokens }, got "o200k_base 12"' },
        { index: 3, field: "encoding", reason: 'expected an encoding name of 1 to 64 characters, got ""' },
        { index: 4, field: "encoding", reason: `expected an encoding name of 1 to 64 characters, got "${"x".repeat(65)}"` },
        { index: 5, field: "key", reason: 'expected a countKey() key, got "not a key"' },
        { index: 6, field: "key", reason: `expected a countKey() key, got "${good.key}x"` },
        { index: 7, field: "tokens", reason: "expected a whole number of tokens, 0 or more, got undefined" },
        { index: 8, field: "tokens", reason: "expected a whole number of tokens, 0 or more, got -1" },
        { index: 9, field: "tokens", reason: "expected a whole number of tokens, 0 or more, got 1.5" },
        { index: 10, field: "tokens", reason: 'expected a whole number of tokens, 0 or more, got "12"' },
        { index: 11, field: "tokens", reason: `${other!.length * 3 + 1} tokens cannot come from a text of ${other!.length} characters (1 to ${other!.length * 3})` },
        { index: 12, field: "tokens", reason: `0 tokens cannot come from a text of ${other!.length} characters (1 to ${other!.length * 3})` },
        { index: 15, field: "record", reason: "expected { encoding, key, tokens }, got an array" },
      ],
    });
    // The first count of a key stays.
    expect(memo.tokenizer.count(text!)).toBe(good.tokens);
    expect(memo.size).toBe(1);
  });

  test("add() of something that is not a list of records is a typed error", () => {
    expect(() => new TokenCountMemo(o200k).add(undefined as never)).toThrow(
      new CtxpipeError(ERROR_CODES.INPUT_INVALID, "TokenCountMemo.add(): expected an array of records, got undefined"),
    );
  });

  test.for([
    [estimatingTokenizer, { minLength: 1 }, "✖ expected a tokenizer from getEncoding() or createTokenizer() (exact, or an approximation over an exact encoding), got an object\n  → at tokenizer"],
    [o200k, { minLength: -1 }, "✖ expected a whole number of characters, 0 or more, got -1\n  → at minLength"],
    [o200k, { minLength: 2.5 }, "✖ expected a whole number of characters, 0 or more, got 2.5\n  → at minLength"],
    [o200k, { minimum: 3 }, '✖ Unrecognized key: "minimum" (known: minLength)'],
  ] as const)("rejects %#: a typed error naming the field", ([tokenizer, options, details]) => {
    expect(() => new TokenCountMemo(tokenizer as never, options as never)).toThrow(new PluginOptionsError("TokenCountMemo", details));
  });

  test("a count() of something that is not a string fails as the encoding's would", () => {
    const memo = new TokenCountMemo(o200k);
    expect(() => memo.tokenizer.count(42 as never)).toThrow(new CtxpipeError(ERROR_CODES.INPUT_INVALID, "o200k_base tokenizer: count() takes a string, got 42"));
  });
});
