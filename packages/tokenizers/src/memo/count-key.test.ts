import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MIXED_CORPUS } from "../__fixtures__/mixed-corpus.js";
import { COUNT_KEY_PATTERN, countKey } from "./count-key.js";

describe("countKey", () => {
  test.for([
    ["", "0-47DEQpj8HBSa-_TImW-5JC"],
    ["Hello world", "11-ZOyIygCyaOW6GjVnihtTFt"],
    ["Hello world!", "12-wFNeS-K3n_2TKRMFQ2v4iT"],
    ["构建在持续集成上失败", "10-mqc5SjvdfkRTJ5habz-e8Q"],
    // A lone surrogate would become U+FFFD in UTF-8: its key is made from the code units instead.
    ["\uD800", "1_IFAi40KLfIJ2zyR7NuTlEt"],
    ["\uFFFD", "1-g9VEzMIjwFfSv4DT8qMpgs"],
  ] as const)("%j → %s", ([text, key]) => {
    expect(countKey(text)).toBe(key);
  });

  test("every corpus text gets its own key, within the pattern stores accept, starting with its length", () => {
    const keys = MIXED_CORPUS.map(({ text }) => countKey(text));
    expect(new Set(keys).size).toBe(MIXED_CORPUS.length);
    for (const [index, key] of keys.entries()) {
      expect(key).toMatch(COUNT_KEY_PATTERN);
      expect(key.split(/[-_]/)[0]).toBe(String(MIXED_CORPUS[index]!.text.length));
    }
  });

  test("property: the same text gives the same key, and texts that differ give different keys", () => {
    // Any UTF-16 code units, lone surrogates included; a small alphabet makes equal texts common.
    const codeUnit = fc.oneof(fc.constantFrom(0x41, 0x20, 0x4e2d, 0xd800, 0xdc00, 0xfffd), fc.integer({ min: 0, max: 0xffff }));
    const text = fc.array(codeUnit, { maxLength: 12 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(countKey(a)).toBe(countKey(a.split("").join("")));
        expect(countKey(a) === countKey(b)).toBe(a === b);
        expect(countKey(a)).toMatch(COUNT_KEY_PATTERN);
      }),
      { numRuns: 500 },
    );
  });
});
