import type { OffloadedText } from "../pipeline/build-report.js";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { OffloadedTextCache } from "./offloaded-text-cache.js";

const text = (handle: string, chars: number): OffloadedText => ({ handle, itemId: handle, text: handle[0]!.repeat(chars), chars });

describe("OffloadedTextCache", () => {
  test("past the limit, the texts seen longest ago go first; a text seen again is the newest", () => {
    const texts = new OffloadedTextCache(100);
    texts.keep([text("a", 40), text("b", 40)]);
    texts.keep([text("a", 40)]);
    texts.keep([text("c", 40)]);
    expect(["a", "b", "c"].map((handle) => texts.get(handle) !== undefined)).toEqual([true, false, true]);
    expect(texts.chars).toBe(80);
  });

  test("the newest text stays even alone over the limit; a limit of 0 keeps nothing", () => {
    const texts = new OffloadedTextCache(10);
    texts.keep([text("a", 5), text("b", 50)]);
    expect([texts.get("a"), texts.get("b")?.length]).toEqual([undefined, 50]);
    const none = new OffloadedTextCache(0);
    none.keep([text("a", 5)]);
    expect([none.get("a"), none.chars]).toEqual([undefined, 0]);
  });

  test("property: the total stays within the limit (or is one text), and every text kept is the one given", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d", "e"), fc.nat(60)), { maxLength: 4 }), { maxLength: 12 }), fc.integer({ min: 1, max: 150 }), (builds, limit) => {
        const texts = new OffloadedTextCache(limit);
        const last = new Map<string, number>();
        for (const build of builds) {
          texts.keep(build.map(([handle, chars]) => text(handle, chars)));
          for (const [handle, chars] of build) last.set(handle, chars);
        }
        let held = 0;
        let count = 0;
        for (const [handle, chars] of last) {
          const kept = texts.get(handle);
          if (kept === undefined) continue;
          expect(kept).toBe(handle.repeat(chars));
          held += chars;
          count++;
        }
        expect(held).toBe(texts.chars);
        if (count > 1) expect(held).toBeLessThanOrEqual(limit);
      }),
    );
  });
});
