import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { parseInput } from "../model/parse-items.js";
import { adversarialConversations } from "../testing/adversarial-conversations.js";
import { checkRules } from "./check-rules.js";
import { ItemRuleChecker } from "./item-rule-checker.js";
import { itemRules } from "./item-rules.js";

const flatten = (byRule: ReturnType<ItemRuleChecker["check"]>) => itemRules.flatMap((rule) => byRule.get(rule) ?? []);

describe("ItemRuleChecker", () => {
  test("finds what checkRules(itemRules) finds, in its order, for any list after any earlier one", () => {
    fc.assert(
      fc.property(
        adversarialConversations(fc, { maxSteps: 18 }),
        // Each step: how many items to append, how many of the last ones to take away or replace first,
        // and how many of the first ones to leave out (a window's cut that moved: the same items, at other places).
        fc.array(fc.record({ append: fc.nat({ max: 5 }), takeBack: fc.nat({ max: 3 }), replaceLast: fc.boolean(), dropFront: fc.nat({ max: 2 }) }), { maxLength: 10 }),
        (conversation, steps) => {
          const all = parseInput(conversation).items;
          const checker = new ItemRuleChecker();
          let list: Item[] = [];
          let at = 0;
          for (const step of steps) {
            list = list.slice(step.dropFront, Math.max(step.dropFront, list.length - step.takeBack));
            // A stand-in for an item a repair synthesized at the end last time.
            if (step.replaceLast && list.length > 0) list.push({ id: "ctxpipe:continue", type: "user", role: "user", text: "Continue.", metadata: {} } as Item);
            list.push(...all.slice(at, at + step.append));
            at += step.append;
            expect(flatten(checker.check(itemRules, list))).toEqual(checkRules(itemRules, list));
          }
          expect(flatten(checker.check(itemRules, all))).toEqual(checkRules(itemRules, all));
        },
      ),
      { numRuns: 300 },
    );
  });

  test("leaves rules it does not know to checkRules", () => {
    const custom = { ...itemRules[0]! };
    const checker = new ItemRuleChecker();
    expect(checker.handles(itemRules[0]!)).toBe(true);
    expect(checker.handles(custom)).toBe(false);
    expect(checker.check([custom], []).size).toBe(0);
  });
});
