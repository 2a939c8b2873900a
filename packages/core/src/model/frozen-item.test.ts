// frozenItem makes an item a plugin adds the way the pipeline's check keeps it. The promises: the item
// is parsed and frozen through without freezing anything of the caller's; the check takes it as it
// is, so a list a tap noted (notePrefix) is handed to the next tap as the same array, not a copy; and
// bad input gets a typed error naming the field.
import { describe, expect, test } from "vitest";
import { InvalidInputError } from "../errors/invalid-input-error.js";
import { notePrefix } from "../pipeline/list-lineage.js";
import type { Items } from "../pipeline/pipeline-hooks.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { STAGE } from "../pipeline/stage.js";
import { wordTokenizer } from "../testing/index.js";
import { frozenCopy } from "./frozen-copy.js";
import { frozenItem } from "./frozen-item.js";
import { isDeepFrozen } from "./is-deep-frozen.js";
import type { Item, ItemInput } from "./item.js";
import { parseItem } from "./parse-items.js";

describe("frozenItem", () => {
  test("gives the parsed item, frozen through, which parsing takes as it is", () => {
    const reminder = frozenItem({ id: "reminder", type: "user", text: "Answer in English." });
    expect(reminder).toEqual(parseItem({ id: "reminder", type: "user", text: "Answer in English." }, 0));
    expect(isDeepFrozen(reminder)).toBe(true);
    expect(parseItem(reminder, 0)).toBe(reminder);
    // Made again from it, it is the same object.
    expect(frozenItem(reminder)).toBe(reminder);
  });

  test("freezes nothing of the caller's: nested values are frozen copies", () => {
    const extra = { tags: ["a", "b"], nested: { level: 1 } };
    const input: ItemInput = { id: "note", type: "user", text: "See the tags.", metadata: { extra } };
    const made = frozenItem(input);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(extra)).toBe(false);
    expect(Object.isFrozen(extra.tags)).toBe(false);
    expect(made.metadata.extra).toEqual(extra);
    expect(made.metadata.extra).not.toBe(extra);
    expect(isDeepFrozen(made)).toBe(true);
  });

  test("an invalid item or a reserved id is an InvalidInputError naming the field", () => {
    const invalid = () => frozenItem({ id: "r", type: "tool-result", callId: "c1", output: 42 } as unknown as ItemInput);
    expect(invalid).toThrow(InvalidInputError);
    expect(invalid).toThrow(/item\[0\] \(id "r"\), field output/);
    expect(() => frozenItem({ id: "ctxpipe:mine", type: "user", text: "hi" })).toThrow(/field id: ids starting with "ctxpipe:" are reserved/);
  });

  test("a tap that adds one and notes its list hands the next tap that very array", async () => {
    // The same reminder before the newest message on every build; a plain object in parse order or not,
    // the check would put a parsed copy in its place, and so copy the list.
    const reminder = frozenItem({ id: "reminder", type: "user", text: "Answer in English." });
    const handedOn: Array<{ made: Items; seen: Items }> = [];
    let made: Items = [];
    const pipeline = createPipeline({
      plugins: [
        {
          name: "Reminder",
          apply(host) {
            host.hooks.insertSystem.tap({ name: "Reminder", stage: STAGE.EARLY }, (items, context) => {
              made = [...items.slice(0, -1), reminder, items.at(-1)!];
              notePrefix(made, items, items.length - 1);
              context.report.synthesize(reminder, "a reminder before the newest message");
              return made;
            });
            host.hooks.insertSystem.tap({ name: "Reader", stage: STAGE.EARLY + 1 }, (items) => {
              handedOn.push({ made, seen: items });
              return undefined;
            });
          },
        },
      ],
    });
    const history: ItemInput[] = [{ id: "u0", type: "user", text: "first question" }];
    for (let turn = 1; turn <= 3; turn++) {
      history.push({ id: `a${turn}`, type: "assistant", text: `answer ${turn}` }, { id: `u${turn}`, type: "user", text: `question ${turn}` });
      const built = await pipeline.build(history, { tokenizer: wordTokenizer });
      expect(built.request.messages.some((message) => message.content === "Answer in English.")).toBe(true);
    }
    expect(handedOn).toHaveLength(3);
    for (const { made: list, seen } of handedOn) expect(seen).toBe(list);
  });
});

describe("frozenCopy", () => {
  test("copies plain data frozen through, takes deep-frozen data as it is and leaves class instances alone", () => {
    const data = { list: [1, { a: "x" }], when: "2026-11-26" };
    const copy = frozenCopy(data);
    expect(copy).toEqual(data);
    expect(isDeepFrozen(copy)).toBe(true);
    expect(Object.isFrozen(data.list)).toBe(false);
    expect(frozenCopy(copy)).toBe(copy);
    const withDate = { at: new Date(0) };
    expect(frozenCopy(withDate)).toBe(withDate);
    expect(frozenCopy("text")).toBe("text");
    const item: Item = frozenItem({ id: "x", type: "user", text: "t" });
    expect(frozenCopy(item)).toBe(item);
  });
});
