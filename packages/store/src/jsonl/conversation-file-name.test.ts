import fc from "fast-check";
import { expect, test } from "vitest";
import { MAX_CONVERSATION_ID_LENGTH } from "../validate-conversation-id.js";
import { conversationFileName, conversationIdFromFileName } from "./conversation-file-name.js";

const conversationIds = fc
  .string({ unit: fc.oneof(fc.constantFrom("a", "Z", "-", "_", ".", "/", "%", "~", " ", "é", "百", "😀"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })), minLength: 1, maxLength: MAX_CONVERSATION_ID_LENGTH })
  .filter((id) => id.length <= MAX_CONVERSATION_ID_LENGTH && !id.includes("\u0000"));

test("every valid conversation id gets a safe file name that gives the id back", () => {
  fc.assert(
    fc.property(conversationIds, (id) => {
      const name = conversationFileName(id);
      expect(name).toMatch(/^[a-z0-9_%~-]+\.jsonl$/);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      const decoded = conversationIdFromFileName(name);
      expect(decoded === "hashed" ? name.startsWith("~") : decoded === id).toBe(true);
    }),
    { numRuns: 500 },
  );
});

test("ids that differ only in case get different file names (case-insensitive filesystems)", () => {
  expect(conversationFileName("Run-1")).not.toBe(conversationFileName("run-1"));
  expect(conversationFileName("Run-1").toLowerCase()).not.toBe(conversationFileName("run-1").toLowerCase());
});

test.for([
  ["notes.txt"],
  ["c.jsonl.torn"],
  ["UPPER.jsonl"],
  ["%4A.jsonl"],
  ["%61.jsonl"],
  ["%zz.jsonl"],
  [".jsonl"],
] as const)("a file the store did not name (%s) is not taken for a conversation", ([name]) => {
  expect(conversationIdFromFileName(name)).toBeUndefined();
});
