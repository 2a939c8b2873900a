// The lists repair-orphans returns are made by it and never changed afterwards, so it notes how far
// each starts as the list it was given (list-lineage.ts): the tap's check then hands the list on as it
// is instead of copying a 10,000-item history, and later stages compare it with last build's without
// reading the shared part.
import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "../../model/item.js";
import { parseItems } from "../../model/parse-items.js";
import { notedPrefix } from "../../pipeline/list-lineage.js";
import type { StageContext } from "../../pipeline/stage-context.js";
import { repairEdges } from "./conversation-edges.js";
import { RepairMemo } from "./repair-memo.js";

const EDGES = { leadingUserText: "(The conversation so far is below.)", trailingAssistant: "continue", continueText: "Continue." } as const;

/** A stage context with what the edges and the memo use: a report that takes decisions, and the input. */
function contextFor(inputItems: ReadonlyArray<Item>): StageContext {
  const ignore = () => undefined;
  const report = { drop: ignore, repair: ignore, synthesize: ignore, clear: ignore, merge: ignore, summarize: ignore, truncate: ignore, offload: () => "ctx_0", attach: ignore };
  return { inputItems, report: { ...report, as: () => report } } as unknown as StageContext;
}

const turns = (count: number, last: "user" | "assistant"): Item[] => {
  const inputs: ItemInput[] = [];
  for (let turn = 0; turn < count; turn++) inputs.push({ id: `u${turn}`, type: "user", text: `question ${turn}` }, { id: `a${turn}`, type: "assistant", text: `answer ${turn}` });
  if (last === "user") inputs.pop();
  return parseItems(inputs);
};

describe("lists repair-orphans returns are noted as made from the list it was given", () => {
  test("a closing user turn: the whole list it was given", () => {
    const items = turns(5, "assistant");
    const closed = repairEdges(items, contextFor(items), EDGES)!;
    expect(closed.length).toBe(items.length + 1);
    expect(notedPrefix(closed, items)).toBe(items.length);
  });

  test("a user turn put in front of a conversation that starts with the assistant: the items before it", () => {
    const items = parseItems([
      { id: "s", type: "system", text: "stored rules" },
      { id: "a0", type: "assistant", text: "hello" },
      { id: "u1", type: "user", text: "hi" },
    ]);
    const led = repairEdges(items, contextFor(items), EDGES)!;
    expect(led.map((item) => item.id)).toEqual(["s", "ctxpipe:conversation-start", "a0", "u1"]);
    expect(notedPrefix(led, items)).toBe(1);
  });

  test("a list with a repaired item in its newest turn: up to that item", () => {
    const items = turns(6, "user");
    const memo = new RepairMemo();
    // A part repaired by putting a new object in the place of its last item (as sanitizing one would).
    const repairLast = (part: ReadonlyArray<Item>) => (part.length === 0 || part.at(-1)!.id !== items.at(-1)!.id ? part : [...part.slice(0, -1), { ...part.at(-1)! }]);
    const repaired = memo.repair(items, contextFor(items), repairLast, () => true);
    expect(repaired).not.toBe(items);
    expect(notedPrefix(repaired, items)).toBe(items.length - 1);
  });
});
