// The build's offloaded texts read through batches' kept indexes must be exactly the map that adding
// every text in the order recorded (first of a handle wins) makes, however own texts and batches mix.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { OffloadedText } from "./build-report.js";
import { OffloadedTexts } from "./offloaded-texts.js";

const text = (handle: string, itemId: string): OffloadedText => ({ handle, itemId, text: `${itemId} text`, chars: itemId.length + 5 });
const handleArbitrary = fc.constantFrom("ctx_a", "ctx_b", "ctx_c", "ctx_d", "ctx_e", "ctx_f");
const stepArbitrary = fc.oneof(
  fc.record({ kind: fc.constant("own" as const), handle: handleArbitrary }),
  fc.record({ kind: fc.constant("batch" as const), handles: fc.array(handleArbitrary, { maxLength: 5 }), shared: fc.nat({ max: 2 }) }),
);

describe("OffloadedTexts", () => {
  test("reads as the map of every text added in order, the first of a handle kept (property)", () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 12 }), (steps) => {
        // Batches' lists are reused between builds: the same list objects come back.
        const batches = [0, 1, 2].map(() => new Map<string, ReadonlyArray<OffloadedText>>());
        const texts = new OffloadedTexts();
        const expected = new Map<string, OffloadedText>();
        steps.forEach((step, index) => {
          const list =
            step.kind === "own"
              ? [text(step.handle, `own-${index}`)]
              : (() => {
                  const key = step.handles.join(",");
                  let kept = batches[step.shared]!.get(key);
                  if (kept === undefined) {
                    kept = step.handles.map((handle, at) => text(handle, `batch-${step.shared}-${at}`));
                    batches[step.shared]!.set(key, kept);
                  }
                  return kept;
                })();
          if (step.kind === "own") texts.add(list[0]!);
          else texts.addBatch(list);
          for (const added of list) if (!expected.has(added.handle)) expected.set(added.handle, added);
          expect(texts.any).toBe(expected.size > 0);
        });
        expect([...texts.entries()]).toEqual([...expected.entries()]);
        expect([...texts]).toEqual([...expected]);
        expect([...texts.keys()]).toEqual([...expected.keys()]);
        expect(texts.size).toBe(expected.size);
        const visited: string[] = [];
        texts.forEach((value, key, map) => {
          expect(map).toBe(texts);
          expect(value.handle).toBe(key);
          visited.push(key);
        });
        expect(visited).toEqual([...expected.keys()]);
        for (const handle of ["ctx_a", "ctx_b", "ctx_c", "ctx_d", "ctx_e", "ctx_f", "ctx_none"]) {
          expect(texts.get(handle)).toBe(expected.get(handle));
          expect(texts.has(handle)).toBe(expected.has(handle));
        }
      }),
      { numRuns: 500 },
    );
  });

  test("a text added after a batch that holds its handle is not kept twice", () => {
    const texts = new OffloadedTexts();
    const batch = [text("ctx_a", "r1"), text("ctx_b", "r2")];
    texts.addBatch(batch);
    texts.add(text("ctx_a", "r3"));
    texts.add(text("ctx_c", "r4"));
    expect([...texts.values()].map((kept) => kept.itemId)).toEqual(["r1", "r2", "r4"]);
    expect(texts.size).toBe(3);
  });
});
