import { expect, test } from "vitest";
import type { ConversationStore } from "./conversation-store.js";
import { StoreInputError } from "./errors/store-input-error.js";
import { supportsTokenCounts } from "./supports-token-counts.js";
import { validateTokenCountRecords } from "./validate-token-count-records.js";

test("valid records come back with only their three fields, the first of each (encoding, key)", () => {
  expect(
    validateTokenCountRecords("c", [
      { encoding: "o200k_base", key: "k1", tokens: 3, extra: true },
      { encoding: "o200k_base", key: "k1", tokens: 9 },
      { encoding: "cl100k_base", key: "k1", tokens: 4 },
      { encoding: "o200k_base", key: "k2", tokens: 0 },
    ]),
  ).toStrictEqual([
    { encoding: "o200k_base", key: "k1", tokens: 3 },
    { encoding: "cl100k_base", key: "k1", tokens: 4 },
    { encoding: "o200k_base", key: "k2", tokens: 0 },
  ]);
  expect(validateTokenCountRecords("c", [])).toStrictEqual([]);
});

test.for([
  ["not an object", "x", [{ index: 0, field: "", message: "must be a plain object" }]],
  ["an empty encoding", { encoding: "", key: "k", tokens: 1 }, [{ index: 0, id: "k", field: "encoding", message: "must be a string of 1 to 64 characters" }]],
  ["a 65-character encoding", { encoding: "e".repeat(65), key: "k", tokens: 1 }, [{ index: 0, id: "k", field: "encoding", message: "must be a string of 1 to 64 characters" }]],
  ["a key with a slash", { encoding: "e", key: "a/b", tokens: 1 }, [{ index: 0, id: "a/b", field: "key", message: "must be 1 to 64 letters, digits, '_' or '-'" }]],
  ["a 65-character key", { encoding: "e", key: "k".repeat(65), tokens: 1 }, [{ index: 0, id: "k".repeat(65), field: "key", message: "must be 1 to 64 letters, digits, '_' or '-'" }]],
  ["no key", { encoding: "e", tokens: 1 }, [{ index: 0, field: "key", message: "must be 1 to 64 letters, digits, '_' or '-'" }]],
  ["negative tokens", { encoding: "e", key: "k", tokens: -1 }, [{ index: 0, id: "k", field: "tokens", message: "must be a non-negative integer" }]],
  ["fractional tokens", { encoding: "e", key: "k", tokens: 1.5 }, [{ index: 0, id: "k", field: "tokens", message: "must be a non-negative integer" }]],
  ["tokens as a string", { encoding: "e", key: "k", tokens: "1" }, [{ index: 0, id: "k", field: "tokens", message: "must be a non-negative integer" }]],
] as const)("%s is refused, naming the index, key and field", ([, record, issues]) => {
  const error = (() => {
    try {
      validateTokenCountRecords("conv", [record]);
    } catch (caught) {
      return caught;
    }
  })() as StoreInputError;
  expect(error).toBeInstanceOf(StoreInputError);
  expect(error.issues).toStrictEqual(issues);
});

test("a batch that is not an array is refused", () => {
  expect(() => validateTokenCountRecords("conv", { encoding: "e", key: "k", tokens: 1 })).toThrow(StoreInputError);
});

test.for([
  ["both methods", { appendTokenCounts: async () => {}, loadTokenCounts: async () => [] }, true],
  ["only appendTokenCounts", { appendTokenCounts: async () => {} }, false],
  ["neither", {}, false],
] as const)("supportsTokenCounts with %s is %s", ([, methods, expected]) => {
  expect(supportsTokenCounts(methods as unknown as ConversationStore)).toBe(expected);
});
