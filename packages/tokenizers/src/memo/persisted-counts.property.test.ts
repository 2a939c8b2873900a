// Persisted counts must never change a build: a new pipeline whose memo was given the records of an
// earlier process (some for texts that changed since, some another encoding's, some junk) builds
// byte for byte what a new pipeline counting every text itself builds.
import { type BuildOptions, createPipeline, type ItemInput } from "@ctxpipe/core";
import { adversarialConversations } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createTokenizer } from "../create-tokenizer.js";
import { getEncoding } from "../get-encoding.js";
import { TokenCountMemo } from "./token-count-memo.js";

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

async function outcomeOf(run: () => Promise<{ request: unknown; tokenCount: number; report: unknown; metadata: unknown; includedIds: unknown; excludedIds: unknown }>): Promise<Outcome> {
  try {
    const { request, tokenCount, report, metadata, includedIds, excludedIds } = await run();
    // allEntries is not enumerable, so JSON leaves it out: compare it on its own.
    const { allEntries } = report as { allEntries: unknown };
    return { ok: true, value: JSON.stringify({ request, tokenCount, report, allEntries, metadata, includedIds, excludedIds }) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** The same item with its text changed, as an edited message is stored again under its id. */
function edited(item: ItemInput): ItemInput {
  const record = item as Record<string, unknown>;
  for (const field of ["content", "text", "output"]) {
    if (typeof record[field] === "string") return { ...record, [field]: `${record[field]} (edited)` } as ItemInput;
  }
  return item;
}

const junk = fc.oneof(
  fc.anything(),
  fc.record({ encoding: fc.constantFrom("o200k_base", "cl100k_base", ""), key: fc.string({ maxLength: 70 }), tokens: fc.oneof(fc.integer(), fc.double()) }),
);

const MODELS = ["gpt-4o", "gpt-4", "claude-sonnet-4"] as const;

describe("persisted token counts", () => {
  test("a new pipeline counting through a memo given an earlier process's records builds what a new pipeline counting everything builds", async () => {
    await fc.assert(
      fc.asyncProperty(
        adversarialConversations(fc, { maxSteps: 20 }),
        fc.nat(),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.array(junk, { maxLength: 6 }),
        fc.constantFrom(...MODELS),
        fc.constantFrom(0, 8, 128),
        fc.option(fc.integer({ min: 30, max: 600 }), { nil: undefined }),
        async (conversation, split, edits, junkRecords, model, minLength, maxTokens) => {
          const options: BuildOptions = { system: "Be brief.", ...(maxTokens === undefined ? {} : { maxTokens }) };
          // An earlier process built an older state of the conversation: a prefix, some of it since edited.
          const older = conversation.slice(0, split % (conversation.length + 1)).map((item, index) => (edits[index] === true ? edited(item) : item));
          const earlier = new TokenCountMemo(createTokenizer(model), { minLength });
          await createPipeline().build(older, { ...options, tokenizer: earlier.tokenizer }).catch(() => undefined);
          // Also the counts of another encoding for the same texts, kept in the same store.
          const otherEncoding = new TokenCountMemo(getEncoding(earlier.encoding === "o200k_base" ? "cl100k_base" : "o200k_base"), { minLength });
          await createPipeline().build(older, { ...options, tokenizer: otherEncoding.tokenizer }).catch(() => undefined);
          const persisted = earlier.takeNew();
          const stored: unknown[] = [...otherEncoding.takeNew(), ...junkRecords, ...persisted];

          const memo = new TokenCountMemo(createTokenizer(model), { minLength });
          memo.add(stored);
          const withCounts = await outcomeOf(() => createPipeline().build([...conversation], { ...options, tokenizer: memo.tokenizer }));
          const counted = await outcomeOf(() => createPipeline().build([...conversation], { ...options, tokenizer: createTokenizer(model) }));
          expect(withCounts).toEqual(counted);
          // And nothing the earlier process counted was counted again.
          const known = new Set(persisted.map((record) => record.key));
          expect(memo.takeNew().filter((record) => known.has(record.key))).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
