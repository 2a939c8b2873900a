import { describe, expect, test } from "vitest";
import { toolLoopFixture } from "../testing/fixtures.js";
import type { ItemInput } from "./item.js";
import { parseItems } from "./parse-items.js";
import { computeTurnGroups } from "./turn-groups.js";

describe("computeTurnGroups", () => {
  test("a user turn owns the assistant's calls and all their results", () => {
    const items: ItemInput[] = [
      { id: "s", type: "summary", text: "earlier" },
      ...toolLoopFixture(),
      { id: "u2", type: "user", text: "thanks" },
      { id: "a3", type: "assistant", text: "welcome" },
    ];
    const turns = computeTurnGroups(parseItems(items));
    expect(turns.groups.map((group) => ({ itemIds: group.itemIds, openedBy: group.openedBy }))).toEqual([
      { itemIds: ["s"], openedBy: undefined },
      { itemIds: ["u1", "a1", "t1", "t2", "a2"], openedBy: "u1" },
      { itemIds: ["u2", "a3"], openedBy: "u2" },
    ]);
    expect(turns.current?.openedBy).toBe("u2");
    expect(turns.groupOf("t2")?.index).toBe(1);
    expect(turns.groupOf("missing")).toBeUndefined();
  });

  test("user interventions and parent-agent messages open turns too", () => {
    const items: ItemInput[] = [
      { id: "p", type: "parent-message", parentAgentId: "root", text: "go" },
      { id: "a", type: "assistant", text: "on it" },
      { id: "i", type: "user-intervention", text: "stop" },
    ];
    expect(computeTurnGroups(parseItems(items)).groups.map((group) => group.openedBy)).toEqual(["p", "i"]);
  });

  test("a result stays in its call's group even when a user turn came in between", () => {
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "run it" },
      { id: "a", type: "assistant", toolCalls: [{ id: "c1", name: "run", arguments: "{}" }] },
      { id: "i", type: "user-intervention", text: "faster" },
      { id: "t", type: "tool-result", callId: "c1", output: "done" },
    ];
    const turns = computeTurnGroups(parseItems(items));
    expect(turns.groups.map((group) => group.itemIds)).toEqual([["u", "a", "t"], ["i"]]);
    expect(turns.groupOf("t")?.openedBy).toBe("u");
  });

  test("an empty list has no groups", () => {
    const turns = computeTurnGroups([]);
    expect(turns.groups).toEqual([]);
    expect(turns.current).toBeUndefined();
  });
});
