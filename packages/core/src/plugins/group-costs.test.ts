// GroupCosts brings last build's per-group sums up to date in place while the list only grows. The
// promise: its view is always what a new GroupCosts gives for the same list, also after an estimate
// that threw half-way through an update (a tokenizer failing on one new item).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "../model/item.js";
import { parseItems } from "../model/parse-items.js";
import { computeTurnGroups } from "../model/turn-groups.js";
import { wordTokenizer } from "../testing/index.js";
import { GroupCosts, type GroupCostsView } from "./group-costs.js";

const estimate = (item: Item) => 1 + ("text" in item ? wordTokenizer.count(item.text) : "output" in item ? wordTokenizer.count(item.output) : 0);
const context = { tokenizer: wordTokenizer, countTokens: estimate };

/** `turns` turns of a tool-using agent; every fourth answer pinned. */
function history(turns: number): Item[] {
  const inputs: ItemInput[] = [];
  for (let turn = 0; turn < turns; turn++) {
    inputs.push({ id: `u${turn}`, type: "user", text: `Question ${turn} about the failing build` });
    inputs.push({ id: `a${turn}`, type: "assistant", text: "", toolCalls: [{ id: `c${turn}`, name: "read_file", arguments: "{}" }] });
    inputs.push({ id: `t${turn}`, type: "tool-result", callId: `c${turn}`, toolName: "read_file", output: `line ${turn} `.repeat(1 + (turn % 5)) });
    inputs.push({ id: `r${turn}`, type: "assistant", text: `Answer ${turn}${turn % 3 === 0 ? " with more words in it" : ""}`, ...(turn % 4 === 0 ? { metadata: { pinned: true } } : {}) });
  }
  return parseItems(inputs);
}

function plain(view: GroupCostsView, items: ReadonlyArray<Item>) {
  return { cost: [...view.cost], count: [...view.count], lastPosition: [...view.lastPosition], pinned: [...view.pinned], total: view.total, positions: items.map((item) => view.positionOf(item.id)) };
}

const fresh = (items: ReadonlyArray<Item>) => plain(new GroupCosts().of(items, computeTurnGroups(items).groups, context, estimate), items);

describe("GroupCosts", () => {
  test("a list that grew step by step gives what a new GroupCosts gives for it", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 12 }), (steps) => {
        const all = history(30);
        const costs = new GroupCosts();
        let length = 0;
        for (const step of steps) {
          length = Math.min(all.length, length + step);
          const items = all.slice(0, length);
          expect(plain(costs.of(items, computeTurnGroups(items).groups, context, estimate), items)).toEqual(fresh(items));
        }
      }),
    );
  });

  test("an estimate that throws half-way through an update leaves nothing half-updated for the next build", () => {
    const all = history(12);
    const costs = new GroupCosts();
    // The last turn without its result and answer yet.
    const first = all.slice(0, 18);
    costs.of(first, computeTurnGroups(first).groups, context, estimate);
    // The next list adds both to that turn's group and opens new ones; the estimate fails on the
    // answer, after the result was summed into the group's cost.
    const grown = all.slice(0, 30);
    const failing = (item: Item) => {
      if (item.id === "r4") throw new Error("the tokenizer failed");
      return estimate(item);
    };
    expect(() => costs.of(grown, computeTurnGroups(grown).groups, context, failing)).toThrow("the tokenizer failed");
    expect(plain(costs.of(grown, computeTurnGroups(grown).groups, context, estimate), grown)).toEqual(fresh(grown));
  });
});
