import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { parseItems } from "../model/parse-items.js";
import { computeTurnGroups } from "../model/turn-groups.js";
import { TurnGroupsCache } from "./turn-groups-cache.js";

const turn = (n: number): Item[] =>
  parseItems([
    { id: `u${n}`, type: "user", text: `question ${n}` },
    { id: `c${n}`, type: "assistant", text: "", toolCalls: [{ id: `call_${n}`, name: "read", arguments: "{}" }] },
    { id: `t${n}`, type: "tool-result", callId: `call_${n}`, output: "ok" },
  ]);

// A list a compress tap made: not the build's input, so the build's own groups do not answer for it.
const notInput = { inputItems: [], turns: computeTurnGroups([]) };

describe("TurnGroupsCache", () => {
  test("a list that only grew keeps the objects of the groups it did not touch, and groups as computeTurnGroups does", () => {
    const cache = new TurnGroupsCache();
    const first = [...turn(1), ...turn(2)];
    const before = cache.of(first, notInput);
    const grown = [...first, ...turn(3)];
    const after = cache.of(grown, notInput);
    expect(after.groups.slice(0, 2)).toEqual(before.groups);
    expect(after.groups[0]).toBe(before.groups[0]);
    expect(after.groups[1]).toBe(before.groups[1]);
    expect(after.groups).toEqual(computeTurnGroups(grown).groups);
  });

  test("the build's input gets the build's own groups; any other list starts over", () => {
    const cache = new TurnGroupsCache();
    const input = [...turn(1), ...turn(2)];
    const turns = computeTurnGroups(input);
    expect(cache.of(input, { inputItems: input, turns })).toBe(turns);
    cache.of(input.slice(0, 3), notInput);
    const other = [...turn(2), ...turn(1)];
    expect(cache.of(other, notInput).groups).toEqual(computeTurnGroups(other).groups);
  });

  test("results replaced in place under their ids (placeholders) keep every group object; a replacement that ties another call starts over", () => {
    const cache = new TurnGroupsCache();
    const first = [...turn(1), ...turn(2)];
    const before = cache.of(first, notInput);
    const cleared = first.map((item) => (item.type === "tool-result" ? Object.freeze({ ...item, output: "[cleared]" }) : item));
    const after = cache.of([...cleared, ...turn(3)], notInput);
    expect(after.groups[0]).toBe(before.groups[0]);
    expect(after.groups[1]).toBe(before.groups[1]);
    expect(after.groups).toEqual(computeTurnGroups([...cleared, ...turn(3)]).groups);
    const retied = first.map((item) => (item.id === "t1" ? { ...item, callId: "call_2" } : item)) as Item[];
    expect(cache.of(retied, notInput).groups).toEqual(computeTurnGroups(retied).groups);
  });
});
