import { PluginOptionsError } from "@ctxpipe/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MIXED_CORPUS } from "../__fixtures__/mixed-corpus.js";
import { createTokenizer } from "../create-tokenizer.js";
import { getEncoding } from "../get-encoding.js";
import { type ApproximateTokenizer, createApproximateTokenizer } from "./approximate-tokenizer.js";

const o200k = getEncoding("o200k_base");
const approximate = (factor: number, safetyMargin: number) =>
  createApproximateTokenizer({ kind: "approximation", model: "test-model", base: o200k, factor, safetyMargin });

// Texts of a few hundred tokens, like the messages of a request.
const TEXTS = MIXED_CORPUS.map((sample) => sample.text).filter((text) => o200k.count(text) >= 40);
const REQUESTS = Array.from({ length: 8 }, (_, index) => TEXTS.slice(index % TEXTS.length).concat(TEXTS.slice(0, index % TEXTS.length)).slice(0, 6));

/** A provider whose tokenizer makes `ratio` tokens per o200k token; its count of a request. */
const providerCount = (texts: ReadonlyArray<string>, ratio: number) => texts.reduce((sum, text) => sum + Math.round(o200k.count(text) * ratio), 0);
/** What ctxpipe counts for a request: the sum of per-message counts, as core does. */
const ourCount = (tokenizer: ApproximateTokenizer, texts: ReadonlyArray<string>) => texts.reduce((sum, text) => sum + tokenizer.count(text), 0);

function calibrateOn(tokenizer: ApproximateTokenizer, ratio: number, requests: ReadonlyArray<ReadonlyArray<string>>): ApproximateTokenizer {
  let current = tokenizer;
  for (const texts of requests) current = current.calibrate({ counted: ourCount(current, texts), reported: providerCount(texts, ratio) });
  return current;
}

describe("approximate tokenizer", () => {
  test("counts ceil(base × factor × (1 + margin)), and 0 for empty text", () => {
    const tokenizer = approximate(1.3, 0.1);
    for (const text of TEXTS) expect(tokenizer.count(text)).toBe(Math.ceil(o200k.count(text) * 1.3 * 1.1 - 1e-9));
    expect(tokenizer.count("")).toBe(0);
    // 10 × 1.1 is 11.000000000000002 in floating point; the count is still 11.
    const ten = "a b c d e f g h i j".slice(0, 19);
    expect(o200k.count(ten)).toBe(10);
    expect(approximate(1, 0.1).count(ten)).toBe(11);
  });

  test("calibrate returns a new tokenizer and leaves the old one as it was", () => {
    const before = approximate(1, 0.1);
    const text = TEXTS[0]!;
    const countBefore = before.count(text);
    const after = before.calibrate({ counted: 1000, reported: 1100 });
    expect(after).not.toBe(before);
    expect(before.factor).toBe(1);
    expect(before.count(text)).toBe(countBefore);
    expect(after.factor).toBeCloseTo(1.21, 10);
    expect(after.name).toBe('o200k_base × 1.21 + 10% (approximation for "test-model")');
    expect(Object.isFrozen(after)).toBe(true);
  });

  test("under-counting is corrected at once, over-counting by half the difference", () => {
    // counted 1100 with a 10% margin estimates 1000 provider tokens at factor 1.
    expect(approximate(1, 0.1).calibrate({ counted: 1100, reported: 1300 }).factor).toBeCloseTo(1.3, 10);
    expect(approximate(1, 0.1).calibrate({ counted: 1100, reported: 800 }).factor).toBeCloseTo(0.9, 10);
  });

  test("a change under 0.5% keeps the same tokenizer, so its cached counts stay valid", () => {
    const tokenizer = approximate(1, 0.1);
    expect(tokenizer.calibrate({ counted: 1100, reported: 1004 })).toBe(tokenizer);
    expect(tokenizer.calibrate({ counted: 1100, reported: 1010 })).not.toBe(tokenizer);
  });

  test("after calibrating on consistent usage, counts land at or above the provider's, within the margin and a few %", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 2.5, noNaN: true }), fc.constantFrom(1, 1.2, 2), fc.constantFrom(0.05, 0.1, 0.2), (ratio, start, margin) => {
        const calibrated = calibrateOn(approximate(start, margin), ratio, REQUESTS);
        for (const texts of REQUESTS) {
          const reported = providerCount(texts, ratio);
          const counted = ourCount(calibrated, texts);
          expect(counted).toBeGreaterThanOrEqual(reported);
          expect(counted).toBeLessThanOrEqual(reported * (1 + margin) * 1.03 + texts.length);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("with a margin, counts never land below the provider's after the first calibration", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 2.5, noNaN: true }), fc.constantFrom(1, 1.2), (ratio, start) => {
        let tokenizer = approximate(start, 0.1);
        for (const texts of REQUESTS) {
          tokenizer = tokenizer.calibrate({ counted: ourCount(tokenizer, texts), reported: providerCount(texts, ratio) });
          for (const others of REQUESTS) expect(ourCount(tokenizer, others)).toBeGreaterThanOrEqual(providerCount(others, ratio));
        }
      }),
      { numRuns: 100 },
    );
  });

  test("without a margin, calibrated counts land within a few % of the provider's", () => {
    for (const ratio of [0.7, 1, 1.35, 2]) {
      const calibrated = calibrateOn(approximate(1.2, 0), ratio, [...REQUESTS, ...REQUESTS]);
      for (const texts of REQUESTS) {
        const reported = providerCount(texts, ratio);
        expect(Math.abs(ourCount(calibrated, texts) - reported) / reported).toBeLessThan(0.03);
      }
    }
  });

  test("counts stay positive and the factor inside 0.25–4 whatever valid usage comes in", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.3, max: 3.5, noNaN: true }), { maxLength: 30 }), (ratios) => {
        let tokenizer = approximate(1.2, 0.1);
        for (const ratio of ratios) {
          const counted = 1000;
          const reported = Math.max(1, Math.round((counted / (1 + tokenizer.safetyMargin)) * (ratio / tokenizer.factor)));
          tokenizer = tokenizer.calibrate({ counted, reported });
          expect(tokenizer.factor).toBeGreaterThanOrEqual(0.25);
          expect(tokenizer.factor).toBeLessThanOrEqual(4);
        }
        expect(tokenizer.count("hello")).toBeGreaterThan(0);
      }),
    );
  });

  test.for([
    [{ counted: 0, reported: 10 }, "✖ expected a positive whole number of tokens, got 0\n  → at counted"],
    [{ counted: 10, reported: -5 }, "✖ expected a positive whole number of tokens, got -5\n  → at reported"],
    [{ counted: 1.5, reported: Number.NaN }, "✖ expected a positive whole number of tokens, got 1.5\n  → at counted\n✖ expected a positive whole number of tokens, got NaN\n  → at reported"],
    [{ counted: "10", reported: 10 }, '✖ expected a positive whole number of tokens, got "10"\n  → at counted'],
    [null, "✖ expected { counted, reported }, got null"],
  ])("rejects nonsense usage %j with a typed error", ([usage, details]) => {
    expect(() => approximate(1, 0.1).calibrate(usage as never)).toThrow(new PluginOptionsError("calibrate()", details as string));
  });

  test("rejects usage that cannot describe the same request", () => {
    expect(() => approximate(1, 0.1).calibrate({ counted: 100, reported: 100_000 })).toThrowErrorMatchingInlineSnapshot(`
      [PluginOptionsError: Invalid options for calibrate():
      ✖ 100000 reported for 100 counted means 1100 provider tokens per o200k_base token, outside 0.25–4: pass the tokenCount of the build that produced the request and the input tokens the provider reported for that same request]
    `);
  });

  test("calibrated tokenizers share base counts, so a new factor does not mean re-tokenizing", () => {
    let baseCalls = 0;
    const countingBase = {
      ...o200k,
      count(text: string) {
        baseCalls++;
        return o200k.count(text);
      },
    };
    const first = createApproximateTokenizer({ kind: "fallback", model: "m", base: countingBase, factor: 1, safetyMargin: 0.1 });
    const long = TEXTS[0]!;
    first.count(long);
    const calibrated = first.calibrate({ counted: 1000, reported: 1200 });
    calibrated.count(long);
    calibrated.calibrate({ counted: 1000, reported: 1500 }).count(long);
    expect(baseCalls).toBe(1);
  });

  test("Claude's tokenizer from createTokenizer calibrates like any approximation", () => {
    const claude = createTokenizer("claude-sonnet-4");
    expect(claude.exact).toBe(false);
    if (claude.exact) return;
    const calibrated = claude.calibrate({ counted: 1320, reported: 1150 });
    expect(calibrated).toMatchObject({ model: "claude-sonnet-4", kind: "approximation", safetyMargin: 0.1 });
    expect(calibrated.factor).toBeCloseTo((1.2 + 1.15) / 2, 10);
  });
});
