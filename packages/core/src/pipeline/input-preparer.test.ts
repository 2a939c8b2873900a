import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { InvalidInputError } from "../errors/invalid-input-error.js";
import type { ItemInput } from "../model/item.js";
import { orderItems } from "../model/order-items.js";
import { deepFreeze } from "../model/deep-freeze.js";
import { parseInput, parseItem } from "../model/parse-items.js";
import { computeTurnGroups } from "../model/turn-groups.js";
import { adversarialConversations } from "../testing/adversarial-conversations.js";
import { copiesEditsDates } from "../testing/adversarial/copies-edits-dates.js";
import type { InputOrder } from "./build-options.js";
import { InputPreparer } from "./input-preparer.js";

/** What a store's loader hands over: the parsed item, deep-frozen (an invalid one as it is). */
function frozenItem(input: ItemInput): ItemInput {
  const parsed = parseItem(input, 0);
  return deepFreeze(Array.isArray(parsed) ? structuredClone(input) : parsed);
}

function fromScratch(inputs: ReadonlyArray<ItemInput>, by: InputOrder) {
  const parsed = parseInput(inputs);
  const ordered = by === "input" ? parsed.items : orderItems(parsed.items);
  const moved = ordered.filter((item, index) => item !== parsed.items[index]).length;
  return { ...parsed, ordered, groups: computeTurnGroups(ordered).groups, order: { by, moved } };
}

describe("InputPreparer", () => {
  test("input that only grew gives what parsing, ordering and grouping it from scratch gives", () => {
    fc.assert(
      fc.property(
        adversarialConversations(fc, { maxSteps: 16 }),
        copiesEditsDates(fc),
        fc.array(fc.option(fc.integer({ min: -2, max: 2 }), { nil: undefined }), { maxLength: 30 }),
        fc.array(fc.nat({ max: 4 }), { maxLength: 8 }),
        fc.constantFrom<InputOrder>("createdAt", "input"),
        fc.boolean(),
        (undated, perturb, dates, steps, by, frozen) => {
          const dated = undated.map((item, index) =>
            dates[index] === undefined ? item : { ...item, createdAt: new Date(Date.UTC(2025, 0, 1) + (index + dates[index]! * 2) * 1000).toISOString() },
          );
          // Frozen: as an agent loop hands over a store's records, each a deep-frozen item (most parse
          // to themselves), in a new frozen array every build.
          const conversation = frozen ? perturb(dated).map(frozenItem) : perturb(dated);
          const preparer = new InputPreparer();
          const history: ItemInput[] = [];
          for (const step of [...steps, conversation.length]) {
            history.push(...conversation.slice(history.length, history.length + step));
            let expected: ReturnType<typeof fromScratch> | unknown;
            try {
              expected = fromScratch(history, by);
            } catch (error) {
              expected = error;
            }
            let prepared: unknown;
            try {
              const { items, indexes, setAside, warnings, ordered, turns, order } = preparer.prepare(frozen ? Object.freeze([...history]) : history, by);
              // No indexes: each item's input index is its position.
              prepared = { items, indexes: indexes ?? items.map((_, position) => position), setAside, warnings, ordered, groups: turns.groups, order };
            } catch (error) {
              prepared = error;
            }
            expect(prepared).toEqual(expected);
          }
        },
      ),
    );
  });

  test("items that are their inputs (stored records parsed before) are extended without a copy of the input, and an in-place edit of the caller's array still starts over", () => {
    const preparer = new InputPreparer();
    const history = Array.from({ length: 6 }, (_, index) => frozenItem({ id: `m${index}`, type: index % 2 === 0 ? "user" : "assistant", text: `text ${index}` } as ItemInput));
    const first = preparer.prepare(history.slice(0, 4), "input");
    expect(first.items.every((item, index) => item === history[index])).toBe(true);
    // The history only grew: the same group objects (the append path), whatever the caller's array.
    const grown = preparer.prepare(history, "input");
    expect(grown.turns.groups[0]).toBe(first.turns.groups[0]);
    // The caller's array changed in place (an item replaced by an equal copy): not an append.
    history[1] = frozenItem({ ...history[1]! });
    const edited = preparer.prepare(history, "input");
    expect(edited.turns.groups[0]).not.toBe(grown.turns.groups[0]);
    expect(edited.items).toEqual(fromScratch(history, "input").items);
    expect(edited.items[1]).toBe(history[1]);
  });

  test("a bad appended item is refused exactly as in a first build, and the next build starts over", () => {
    const preparer = new InputPreparer();
    const history: ItemInput[] = [{ id: "u1", type: "user", text: "hi" }];
    preparer.prepare(history);
    history.push({ id: "u2", type: "user", text: 42 } as unknown as ItemInput);
    expect(() => preparer.prepare(history)).toThrow(InvalidInputError);
    expect(() => preparer.prepare(history)).toThrow(/item\[1\] \(id "u2"\), field text/);
    history.pop();
    expect(preparer.prepare(history).items.map((item) => item.id)).toEqual(["u1"]);
  });

  test("an appended edit takes the place of the record it edits, as in a first build", () => {
    const preparer = new InputPreparer();
    const history: ItemInput[] = [
      { id: "u1", type: "user", text: "hi" },
      { id: "a1", type: "assistant", text: "helo" },
    ];
    preparer.prepare(history);
    history.push({ id: "u2", type: "user", text: "thanks" }, { id: "a1", type: "assistant", text: "hello" });
    const prepared = preparer.prepare(history);
    expect(prepared.ordered.map((item) => [item.id, "text" in item ? item.text : undefined])).toEqual([
      ["u1", "hi"],
      ["a1", "hello"],
      ["u2", "thanks"],
    ]);
    expect(prepared.indexes).toEqual([0, 3, 2]);
    expect(prepared.setAside).toEqual([{ index: 1, item: expect.objectContaining({ id: "a1", text: "helo" }), kind: "earlier-version", keptIndex: 3 }]);
  });

  test("a build with the other order starts over", () => {
    const preparer = new InputPreparer();
    const history: ItemInput[] = [
      { id: "u1", type: "user", text: "first", createdAt: "2026-01-01T10:00:05Z" },
      { id: "a1", type: "assistant", text: "second", createdAt: "2026-01-01T10:00:00Z" },
    ];
    expect(preparer.prepare(history, "input").order).toEqual({ by: "input", moved: 0 });
    const byDate = preparer.prepare(history, "createdAt");
    expect(byDate.order).toEqual({ by: "createdAt", moved: 2 });
    expect(byDate.ordered.map((item) => item.id)).toEqual(["a1", "u1"]);
  });
});
