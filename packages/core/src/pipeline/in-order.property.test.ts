// The walk kept from build to build must tell exactly what a new walk tells, however both lists changed
// since (grew, lost their end, had an item edited, had a new item put in, were reordered).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { InOrderMemo, inOrder } from "./in-order.js";

// What the tap does with each item of the pool: "first-seen" hands back the first object it saw under
// the id (an edited item comes back as it was), "insert-later-id" puts in a new item under the id of
// an item a later build's list holds.
type Fate = "keep" | "drop" | "replace" | "first-seen" | "insert-after" | "insert-later-id" | "insert-copy-of-next" | "swap-with-next";
const FATES: ReadonlyArray<Fate> = ["keep", "keep", "keep", "drop", "replace", "first-seen", "insert-after", "insert-later-id", "insert-copy-of-next", "swap-with-next"];

// A small pool, so that drops, edits and new items meet often.
const POOL = 12;

const item = (id: string): Item => ({ id, type: "user", role: "user", text: id, metadata: {} });

const buildArbitrary = fc.record({
  length: fc.nat({ max: POOL }),
  edit: fc.option(fc.nat(), { nil: undefined }),
});

describe("InOrderMemo", () => {
  test("a walk resumed from the last build's gives what a new walk gives (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Fate>(...FATES), { minLength: POOL, maxLength: POOL }),
        fc.array(buildArbitrary, { minLength: 1, maxLength: 8 }),
        (fates, builds) => {
          const pool = Array.from({ length: POOL }, (_, index) => item(`i${index}`));
          // A tap's own objects are kept from build to build, as strategies keep their placeholders.
          const replacements = new Map<Item, Item>();
          const insertions = new Map<string, Item>();
          const firstSeen = new Map<string, Item>();
          const made = <Key>(map: Map<Key, Item>, key: Key, make: () => Item) => {
            let found = map.get(key);
            if (found === undefined) {
              found = make();
              map.set(key, found);
            }
            return found;
          };
          const memo = new InOrderMemo();
          for (const { length, edit } of builds) {
            const before = pool.slice(0, length);
            // An item edited in place: the same id, a new object (kept in the pool for later builds).
            if (edit !== undefined && before.length > 0) {
              const at = edit % before.length;
              pool[at] = { ...pool[at]!, text: `${pool[at]!.id} edited` } as Item;
              before[at] = pool[at]!;
            }
            const returned: Item[] = [];
            for (let position = 0; position < before.length; position++) {
              const current = before[position]!;
              const fate = fates[Number(current.id.slice(1))]!;
              if (fate === "drop") continue;
              if (fate === "replace") returned.push(made(replacements, current, () => ({ ...current, text: "(cleared)" }) as Item));
              else if (fate === "first-seen") returned.push(made(firstSeen, current.id, () => current));
              else returned.push(current);
              if (fate === "insert-later-id") returned.push(made(insertions, current.id, () => item(`i${Number(current.id.slice(1)) + 3}`)));
              if (fate === "insert-after") returned.push(made(insertions, current.id, () => item(`new-${current.id}`)));
              if (fate === "insert-copy-of-next" && position + 1 < before.length) returned.push(made(insertions, `copy-${current.id}`, () => item(before[position + 1]!.id)));
              if (fate === "swap-with-next" && position + 1 < before.length && returned.length >= 1) {
                returned.splice(returned.length - 1, 0, before[position + 1]!);
                position++;
              }
            }
            expect(memo.of(before, returned)?.order).toEqual(inOrder(before, returned));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
