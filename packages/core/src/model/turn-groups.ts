// Turn groups: a user turn with everything the assistant did in answer to it (text, reasoning, all
// parallel calls and all their results). Stages act on whole groups so a call is never separated from
// its result by construction. Computed once per build and handed to every stage.
import type { Item } from "./item.js";

export interface TurnGroup {
  /** Position of the group, oldest first. */
  readonly index: number;
  /**
   * Ids of the group's items in conversation order. A tool result always sits in the group of the
   * call it answers, even when it arrived after a later user turn.
   */
  readonly itemIds: ReadonlyArray<string>;
  /** Id of the item that opened the group (a user turn), or undefined for items before the first one. */
  readonly openedBy: string | undefined;
}

export interface TurnGroups {
  readonly groups: ReadonlyArray<TurnGroup>;
  /** The newest group: the current loop, which compression must protect. */
  readonly current: TurnGroup | undefined;
  groupOf(itemId: string): TurnGroup | undefined;
}

/** Item types that open a new turn: something a person (or a parent agent) said. */
const OPENS_TURN: ReadonlySet<Item["type"]> = new Set(["user", "user-intervention", "parent-message"]);

export function computeTurnGroups(items: ReadonlyArray<Item>): TurnGroups {
  // First pass: which group each item falls in by position, and which group made each call.
  const groupIds: string[][] = [];
  const openers: Array<string | undefined> = [];
  const groupOfCall = new Map<string, number>();
  for (const item of items) {
    if (OPENS_TURN.has(item.type)) {
      groupIds.push([]);
      openers.push(item.id);
    } else if (groupIds.length === 0) {
      // Items before the first user turn form a group of their own.
      groupIds.push([]);
      openers.push(undefined);
    }
    let group = groupIds.length - 1;
    if (item.type === "assistant") for (const call of item.toolCalls) groupOfCall.set(call.id, group);
    // A result belongs with its call, even when a later user turn came in between.
    if (item.type === "tool-result") group = groupOfCall.get(item.callId) ?? group;
    groupIds[group]!.push(item.id);
  }

  const groups: TurnGroup[] = [];
  const byItemId = new Map<string, TurnGroup>();
  groupIds.forEach((ids, index) => {
    const group: TurnGroup = Object.freeze({ index, itemIds: Object.freeze(ids), openedBy: openers[index] });
    groups.push(group);
    for (const id of ids) byItemId.set(id, group);
  });

  return Object.freeze({
    groups: Object.freeze(groups),
    current: groups.at(-1),
    groupOf: (itemId: string) => byItemId.get(itemId),
  });
}
