import fc from "fast-check";
import { expect, test } from "vitest";
import { countMergedTokens, countMergedTokensByScan, countMergedTokensWithHeap, type RankOf } from "./count-merged-tokens.js";

// A made-up vocabulary over a small alphabet: a byte string is a token when its hash says so, with a
// rank from the hash, so equal ranks also occur for different strings (ties go to the leftmost pair).
function vocabulary(bytes: ReadonlyArray<number>, seed: number, density: number): RankOf {
  return (start, end) => {
    let hash = seed;
    for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, 0x01000193) >>> 0;
    return hash % 100 < density ? hash % 997 : undefined;
  };
}

test("the heap merges like tiktoken's scan on any piece and vocabulary", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 400 }),
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.integer({ min: 5, max: 95 }),
      (bytes, seed, density) => {
        const rankOf = vocabulary(bytes, seed, density);
        expect(countMergedTokensWithHeap(bytes.length, rankOf)).toBe(countMergedTokensByScan(bytes.length, rankOf));
      },
    ),
    { numRuns: 400 },
  );
});

test("merges the lowest rank first and stops when no pair is a token", () => {
  // "abcd" with tokens bc (rank 1), ab (2), cd (3), abcd (4): bc goes first, and then neither abc
  // nor bcd is a token, so it stays a + bc + d. Merging ab and cd first would give one token, abcd.
  const text = "abcd";
  const ranks = new Map([["bc", 1], ["ab", 2], ["cd", 3], ["abcd", 4]]);
  const rankOf: RankOf = (start, end) => ranks.get(text.slice(start, end));
  expect(countMergedTokensByScan(4, rankOf)).toBe(3);
  expect(countMergedTokensWithHeap(4, rankOf)).toBe(3);
  expect(countMergedTokens(4, rankOf)).toBe(3);
});

test.for([0, 1])("a piece of %i bytes is that many tokens", (length) => {
  expect(countMergedTokens(length, () => 0)).toBe(length);
});
