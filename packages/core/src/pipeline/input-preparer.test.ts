import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { InvalidInputError } from "../errors/invalid-input-error.js";
import type { ItemInput } from "../model/item.js";
import { orderItems } from "../model/order-items.js";
import { parseInput } from "../model/parse-items.js";
import { computeTurnGroups } from "../model/turn-groups.js";
import { adversarialConversations } from "../testing/adversarial-conversations.js";
import { InputPreparer } from "./input-preparer.js";

function fromScratch(inputs: ReadonlyArray<ItemInput>) {
  const parsed = parseInput(inputs);
  const ordered = orderItems(parsed.items);
  return { ...parsed, ordered, groups: computeTurnGroups(ordered).groups };
}

describe("InputPreparer", () => {
  test("input that only grew gives what parsing, ordering and grouping it from scratch gives", () => {
    fc.assert(
      fc.property(
        adversarialConversations(fc, { maxSteps: 16 }),
        fc.array(fc.option(fc.integer({ min: -2, max: 2 }), { nil: undefined }), { maxLength: 30 }),
        fc.array(fc.nat({ max: 4 }), { maxLength: 8 }),
        (undated, dates, steps) => {
          const conversation = undated.map((item, index) =>
            dates[index] === undefined ? item : { ...item, createdAt: new Date(Date.UTC(2025, 0, 1) + (index + dates[index]! * 2) * 1000).toISOString() },
          );
          const preparer = new InputPreparer();
          const history: ItemInput[] = [];
          for (const step of [...steps, conversation.length]) {
            history.push(...conversation.slice(history.length, history.length + step));
            let expected: ReturnType<typeof fromScratch> | unknown;
            try {
              expected = fromScratch(history);
            } catch (error) {
              expected = error;
            }
            let prepared: unknown;
            try {
              const { items, indexes, duplicates, ordered, turns } = preparer.prepare(history);
              prepared = { items, indexes, duplicates, ordered, groups: turns.groups };
            } catch (error) {
              prepared = error;
            }
            expect(prepared).toEqual(expected);
          }
        },
      ),
    );
  });

  test("a bad appended item is refused exactly as in a first build, and the next build starts over", () => {
    const preparer = new InputPreparer();
    const history: ItemInput[] = [{ id: "u1", type: "user", text: "hi" }];
    preparer.prepare(history);
    history.push({ id: "u1", type: "user", text: "hello again" });
    expect(() => preparer.prepare(history)).toThrow(InvalidInputError);
    expect(() => preparer.prepare(history)).toThrow(/item\[1\] \(id "u1"\), field id: duplicate id/);
    history.pop();
    expect(preparer.prepare(history).items.map((item) => item.id)).toEqual(["u1"]);
  });
});
