import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parsePluginOptions } from "../plugins/parse-plugin-options.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { CUT_MIDDLE, type CheckedCutMiddleOptions, cutMiddleOptionsSchema, readCutMiddleOptions } from "./cut-middle-options.js";
import type { CutMiddleOptions } from "./cut-middle.js";

const tokenizer: Tokenizer = { specificationVersion: "v1", name: "test", exact: true, count: (text: string) => text.length };
const anyNumber = fc.oneof(fc.integer({ min: -5, max: 1_000_000 }), fc.double(), fc.constantFrom(0, -0, 0.5, 1, 2 ** 53, 2 ** 53 - 1, Number.NaN, Number.POSITIVE_INFINITY));
const field = (values: fc.Arbitrary<unknown>) => fc.option(values, { nil: undefined });
const options = fc.oneof(
  fc.record(
    {
      maxTokens: field(fc.oneof(anyNumber, fc.string())),
      maxChars: field(fc.oneof(anyNumber, fc.constant(null))),
      tokenizer: field(fc.constantFrom(tokenizer, {}, null, "o200k", { count: 1 })),
      headShare: field(fc.oneof(anyNumber, fc.constant("0.5"))),
      textTokens: field(anyNumber),
      extra: field(fc.string()),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom(undefined, null, 42, "options", []),
);

/** The fields cutMiddle reads, or the error thrown. */
function outcome(read: () => CheckedCutMiddleOptions): unknown {
  try {
    const { maxTokens, maxChars, tokenizer: counter, headShare, textTokens } = read();
    return { maxTokens, maxChars, tokenizer: counter, headShare, textTokens };
  } catch (error) {
    return { error: (error as Error).name, message: (error as Error).message };
  }
}

describe("readCutMiddleOptions", () => {
  test("gives what the schema gives for any options, and throws what it throws", () => {
    fc.assert(
      fc.property(options, (given) => {
        expect(outcome(() => readCutMiddleOptions(given as CutMiddleOptions))).toStrictEqual(outcome(() => parsePluginOptions(CUT_MIDDLE, cutMiddleOptionsSchema, given)));
      }),
      { numRuns: 2000 },
    );
  });

  test("plainly valid options are read by hand, with the default head share", () => {
    expect(readCutMiddleOptions({ maxTokens: 100, tokenizer })).toStrictEqual({ maxTokens: 100, maxChars: undefined, tokenizer, headShare: 0.5, textTokens: undefined });
  });
});
