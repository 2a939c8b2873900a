import fc from "fast-check";
import { expect, test } from "vitest";
import { TokenTable } from "./token-table.js";

test("finds every token inside any surrounding text, and nothing else", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ unit: "binary", minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 300 }),
      fc.string({ maxLength: 5 }),
      fc.string({ maxLength: 5 }),
      (tokens, before, after) => {
        const table = new TokenTable(tokens, tokens.map((_, index) => index * 3));
        tokens.forEach((token, index) => {
          const text = before + token + after;
          expect(table.rankOf(text, before.length, before.length + token.length)).toBe(index * 3);
        });
        const missing = "\u0000".repeat(7); // longer than any token
        expect(table.rankOf(missing, 0, missing.length)).toBe(-1);
        expect(table.size).toBe(tokens.length);
      },
    ),
    { numRuns: 200 },
  );
});

test("an empty range is not a token", () => {
  expect(new TokenTable(["a"], [0]).rankOf("abc", 1, 1)).toBe(-1);
});
