import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { adversarialConversations } from "../testing/adversarial-conversations.js";
import { toolLoopFixture } from "../testing/fixtures.js";
import type { ItemInput } from "./item.js";
import { parseInput, parseItems } from "./parse-items.js";
import { computeTurnGroups, TurnGroupsBuilder } from "./turn-groups.js";

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

  test("an empty call id ties no result to an older turn: pairing without ids happens within a turn", () => {
    const items: ItemInput[] = [
      { id: "u1", type: "user", text: "read it" },
      { id: "a1", type: "assistant", toolCalls: [{ id: "", name: "read", arguments: "{}" }] },
      { id: "r1", type: "tool-result", callId: "", output: "text" },
      { id: "u2", type: "user", text: "and this one?" },
      { id: "r2", type: "tool-result", callId: "", output: "stray" },
    ];
    expect(computeTurnGroups(parseItems(items)).groups.map((group) => group.itemIds)).toEqual([
      ["u1", "a1", "r1"],
      ["u2", "r2"],
    ]);
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

  test("appending in pieces gives the groups of one pass, a late result moving into its call's group", () => {
    const late: ItemInput[] = [
      { id: "u1", type: "user", text: "read it" },
      { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }] },
      { id: "u2", type: "user", text: "still there?" },
      { id: "t1", type: "tool-result", callId: "c1", output: "done" },
    ];
    const builder = new TurnGroupsBuilder();
    const items = parseItems(late);
    builder.append(items.slice(0, 3), 0);
    const before = builder.result();
    builder.append(items, 3);
    const after = builder.result();
    expect(after.groups.map((group) => group.itemIds)).toEqual([["u1", "a1", "t1"], ["u2"]]);
    expect(before.groups[0]!.itemIds).toEqual(["u1", "a1"]);
    // An unchanged group is the same object, so per-group work can be reused.
    expect(after.groups[1]).toBe(before.groups[1]);

    fc.assert(
      fc.property(adversarialConversations(fc, { maxSteps: 20 }), fc.array(fc.nat({ max: 5 }), { maxLength: 10 }), (conversation, steps) => {
        const all = parseInput(conversation).items;
        const pieces = new TurnGroupsBuilder();
        let at = 0;
        for (const step of steps) {
          const end = Math.min(all.length, at + step);
          pieces.append(all.slice(0, end), at);
          pieces.result();
          at = end;
        }
        pieces.append(all, at);
        const whole = computeTurnGroups(all);
        const appended = pieces.result();
        expect(appended.groups).toEqual(whole.groups);
        for (const item of all) expect(appended.groupOf(item.id)).toEqual(whole.groupOf(item.id));
      }),
    );
  });

  test("groupOf answers as a look through the groups would, whichever ids are asked first and however the list grew", () => {
    fc.assert(
      fc.property(
        adversarialConversations(fc, { maxSteps: 20 }),
        fc.array(fc.tuple(fc.nat({ max: 5 }), fc.array(fc.nat(), { maxLength: 4 })), { maxLength: 8 }),
        (conversation, steps) => {
          const all = parseInput(conversation).items;
          const builder = new TurnGroupsBuilder();
          let at = 0;
          const check = (asked: ReadonlyArray<number>) => {
            const turns = builder.result();
            const seen = all.slice(0, at);
            const groupHolding = (id: string) => turns.groups.findLast((group) => group.itemIds.includes(id));
            // Some ids first (a few old ones, as a caller asks about), then every id and one never placed.
            for (const pick of asked) if (seen.length > 0) expect(turns.groupOf(seen[pick % seen.length]!.id)).toBe(groupHolding(seen[pick % seen.length]!.id));
            for (const item of seen) expect(turns.groupOf(item.id)).toBe(groupHolding(item.id));
            expect(turns.groupOf("not-an-item")).toBeUndefined();
          };
          for (const [step, asked] of steps) {
            const end = Math.min(all.length, at + step);
            builder.append(all.slice(0, end), at);
            at = end;
            if (asked.length > 0) check(asked);
          }
          builder.append(all, at);
          at = all.length;
          check([0]);
        },
      ),
    );
  });
});
