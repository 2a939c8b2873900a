// Property: whatever the sequence of offload appends (handles repeated within and across batches, any
// text), a store keeps each handle once with its first text, lists handles in first-stored order, and
// a reopened store (nothing cached) reads back the same.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import type { OffloadedRecord } from "../offloaded-record.js";
import { JsonlStore } from "./jsonl-store.js";

const record = fc.record({
  handle: fc.constantFrom("ctx_a", "ctx_b", "ctx_c", "ctx_d", "ctx_e"),
  itemId: fc.constantFrom("t1", "t2"),
  text: fc.string({ unit: "binary", maxLength: 300 }),
  createdAt: fc.constant("2026-01-01T00:00:00.000Z"),
});

test("property: one record per handle, the first text, in first-stored order, before and after a reopen", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(record, { maxLength: 4 }), { minLength: 1, maxLength: 6 }), async (batches) => {
      const directory = await mkdtemp(join(tmpdir(), "ctxpipe-offload-property-"));
      try {
        const store = new JsonlStore({ directory, durability: "none" });
        const first = new Map<string, OffloadedRecord>();
        for (const batch of batches) {
          await store.appendOffloaded("c", batch);
          for (const entry of batch) if (!first.has(entry.handle)) first.set(entry.handle, { ...entry });
        }
        const expected = [...first.values()].map(({ handle, itemId, text, createdAt }) => ({ handle, itemId, chars: text.length, createdAt }));
        for (const reader of [store, new JsonlStore({ directory })]) {
          expect(await reader.listOffloaded("c")).toStrictEqual(expected);
          for (const entry of first.values()) expect(await reader.loadOffloaded("c", entry.handle)).toStrictEqual(entry);
        }
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    }),
    { numRuns: 40 },
  );
});
