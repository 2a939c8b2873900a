// The chain's kept indexes against new ones. StrategyEffects resumes last build's walk from where its
// list or its result first differ (a result cleared further on, a cut that moved either way, an item
// an earlier strategy replaced); ListIndex keeps its positions when the list only grew or had items
// replaced in place. Whatever the lists did between builds, both must answer what a new one answers.
import { type Item, type Items, parseItems, type StageContext, type TurnGroups } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ListIndex } from "./list-index.js";
import { StrategyEffects } from "./strategy-effects.js";

const counted = new WeakMap<Item, number>();
// What the chain's context needs here: counts (the text's length stands in for tokens), and no turn groups of its own.
const context = {
  tokenizer: wordTokenizer,
  countTokens: (item: Item) => counted.get(item) ?? ("text" in item ? item.text.length : "output" in item ? item.output.length : 1),
  inputItems: [],
  turns: { groups: [], current: undefined, groupOf: () => undefined } as unknown as TurnGroups,
} as unknown as StageContext;

let made = 0;
function userItem(id: string, words: number, pinned = false): Item {
  const [item] = parseItems([{ id, type: "user", text: "w ".repeat(words), ...(pinned ? { metadata: { pinned: true } } : {}) }]);
  return item!;
}

// A replacement is made once per item and kept, as a strategy's placeholders are: the same result object build after build.
const replacements = new WeakMap<Item, Item>();
function replacementOf(item: Item): Item {
  let replacement = replacements.get(item);
  if (replacement === undefined) {
    replacement = Object.freeze({ ...item, text: "cleared" }) as Item;
    replacements.set(item, replacement);
  }
  return replacement;
}

const changeArbitrary = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("cut end" as const), count: fc.integer({ min: 1, max: 3 }) }),
);

// What the strategy returns this build: some items replaced (the first `count` of the chosen ones,
// as clearing takes the oldest first), or the first `cut` items taken out and some others with them.
const shapeArbitrary = fc.oneof(
  fc.record({ kind: fc.constant("replacing" as const), every: fc.integer({ min: 1, max: 4 }), count: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant("dropping" as const), cut: fc.nat({ max: 40 }), every: fc.integer({ min: 0, max: 7 }) }),
);

type Shape = typeof shapeArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

function resultOf(items: Items, shape: Shape): Items {
  if (shape.kind === "replacing") {
    let replaced = 0;
    return items.map((item, position) => (position % shape.every === 0 && replaced++ < shape.count ? replacementOf(item) : item));
  }
  return items.filter((_, position) => position >= shape.cut && (shape.every === 0 || position % shape.every !== 1));
}

describe("the chain's kept indexes answer what new ones answer (property)", () => {
  test("StrategyEffects and ListIndex over builds whose lists grow, lose their end and have items replaced, and whose results replace or drop", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ change: changeArbitrary, shape: shapeArbitrary, pinned: fc.boolean() }), { minLength: 1, maxLength: 12 }), (builds) => {
        const effects = new StrategyEffects("strategy");
        const inputIndex = new ListIndex();
        const resultIndex = new ListIndex();
        let items: Items = Array.from({ length: 20 }, (_, index) => userItem(`m${index}`, (index % 5) + 1));
        for (const { change, shape, pinned } of builds) {
          // A new list each build, as stages hand on: never the last one changed.
          if (change.kind === "append") items = [...items, ...Array.from({ length: change.count }, () => userItem(`n${made++}`, (made % 4) + 1, pinned))];
          else if (change.kind === "cut end") items = items.slice(0, Math.max(0, items.length - change.count));
          else if (items.length > 0) {
            // An earlier strategy replaced one in place: the same id, another object (pinned or not).
            const at = change.at % items.length;
            const next = [...items];
            next[at] = userItem(items[at]!.id, 9, pinned);
            items = next;
          }
          const result = resultOf(items, shape);
          const indexed = inputIndex.of(items, context);
          const fresh = new ListIndex().of(items, context);
          expect([...indexed.positions].sort()).toEqual([...fresh.positions].sort());
          expect({ pinned: indexed.pinned, hasSummary: indexed.hasSummary, itemTokens: indexed.itemTokens }).toEqual({ pinned: fresh.pinned, hasSummary: fresh.hasSummary, itemTokens: fresh.itemTokens });
          const resultIndexed = resultIndex.of(result, context);
          const resultFresh = new ListIndex().of(result, context);
          expect({ pinned: resultIndexed.pinned, itemTokens: resultIndexed.itemTokens }).toEqual({ pinned: resultFresh.pinned, itemTokens: resultFresh.itemTokens });
          for (const [position, item] of result.entries()) expect(resultIndexed.positions.get(item.id)).toBe(position);
          expect(effects.of(items, result, context, indexed.positions)).toEqual(new StrategyEffects("strategy").of(items, result, context, fresh.positions));
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("ListIndex after a count that threw half-way", () => {
  test("indexes the list again whole: no item counted twice, no pinned id listed twice", () => {
    let failOn: string | undefined;
    const flaky = {
      ...context,
      countTokens: (item: Item) => {
        if (item.id === failOn) {
          failOn = undefined;
          throw new Error("tokenizer unavailable");
        }
        return context.countTokens(item);
      },
    } as StageContext;
    const index = new ListIndex();
    const first = Array.from({ length: 6 }, (_, at) => userItem(`f${at}`, at + 1));
    index.of(first, flaky);
    // The list again with its second item replaced in place, and two pinned items appended; counting the last one fails once.
    const next = [...first, userItem("p1", 3, true), userItem("p2", 4, true)];
    next[1] = userItem("f1", 9);
    failOn = "p2";
    expect(() => index.of(next, flaky)).toThrow("tokenizer unavailable");
    const again = index.of(next, flaky);
    const fresh = new ListIndex().of(next, flaky);
    expect({ positions: [...again.positions], pinned: again.pinned, itemTokens: again.itemTokens, hasSummary: again.hasSummary }).toEqual({
      positions: [...fresh.positions],
      pinned: fresh.pinned,
      itemTokens: fresh.itemTokens,
      hasSummary: fresh.hasSummary,
    });
  });
});
