import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fitPromptCacheKey, MAX_PROMPT_CACHE_KEY_LENGTH } from "./prompt-cache-key.js";

const longId = (tail: string) => `tenant-acme-corp/workspace-research/conversation-2026-11-26-${tail}`;

describe("fitPromptCacheKey", () => {
  test.for([
    { name: "a short key", key: "conversation-42" },
    { name: "a key of exactly 64 characters", key: "k".repeat(64) },
  ])("sends $name as it is", ({ key }) => {
    expect(fitPromptCacheKey(key)).toBe(key);
  });

  test("shortens a longer key to 64 characters: its start, then a hash of the whole key", () => {
    const key = longId("0d5e1a7c-33f1-4f4e-9a52-8f0c2b7d9e11");
    const fitted = fitPromptCacheKey(key);
    expect(key.length).toBeGreaterThan(MAX_PROMPT_CACHE_KEY_LENGTH);
    expect(fitted).toHaveLength(MAX_PROMPT_CACHE_KEY_LENGTH);
    expect(fitted.slice(0, 48)).toBe("tenant-acme-corp/workspace-research/conversatio-");
    expect(fitted.slice(48)).toMatch(/^[0-9a-f]{16}$/);
  });

  test("keeps two long keys that share their first 64 characters apart", () => {
    const first = fitPromptCacheKey(longId("run-1"));
    const second = fitPromptCacheKey(longId("run-2"));
    expect(first.slice(0, 47)).toBe(second.slice(0, 47));
    expect(first).not.toBe(second);
  });

  test("hashes with 64-bit FNV-1a, a fixed function of the key: the same key in every process, so a conversation keeps its cache", () => {
    // The textbook algorithm over UTF-16 code units, in BigInt: no seed, nothing of the process in it.
    const fnv1a64 = (text: string): string => {
      let hash = 0xcbf29ce484222325n;
      for (let index = 0; index < text.length; index++) hash = ((hash ^ BigInt(text.charCodeAt(index))) * 0x100000001b3n) & 0xffffffffffffffffn;
      return hash.toString(16).padStart(16, "0");
    };
    for (const key of [longId("0d5e1a7c-33f1-4f4e-9a52-8f0c2b7d9e11"), `run-${"f".repeat(80)}`, `会话-${"长".repeat(70)}`]) {
      expect(fitPromptCacheKey(key).slice(-16)).toBe(fnv1a64(key));
    }
  });

  test("never ends its readable start on half of a character outside the BMP", () => {
    const key = `${"a".repeat(46)}😀${"b".repeat(40)}`;
    const fitted = fitPromptCacheKey(key);
    expect(fitted).toMatch(/^a{46}-[0-9a-f]{16}$/);
    expect(fitted.isWellFormed()).toBe(true);
  });

  test("property: a key fits, is stable, is itself when short, and well-formed keys stay well-formed", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 120 }), fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }), (key, other) => {
        const fitted = fitPromptCacheKey(key);
        expect(fitted.length).toBeLessThanOrEqual(MAX_PROMPT_CACHE_KEY_LENGTH);
        expect(fitPromptCacheKey(key)).toBe(fitted);
        expect(fitted.isWellFormed()).toBe(true);
        if (key.length <= MAX_PROMPT_CACHE_KEY_LENGTH) expect(fitted).toBe(key);
        else {
          expect(key.startsWith(fitted.slice(0, fitted.lastIndexOf("-")))).toBe(true);
          const longer = key + other;
          expect(fitPromptCacheKey(longer)).not.toBe(fitted);
        }
      }),
    );
  });
});
