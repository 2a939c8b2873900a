// Turn groups: a user turn with everything the assistant did in answer to it (text, reasoning, all
// parallel calls and all their results). Stages act on whole groups so a call is never separated from
// its result by construction. Computed once per build and handed to every stage.
import type { Item } from "./item.js";

export interface TurnGroup {
  /** Position of the group, oldest first. */
  readonly index: number;
  /** Ids of the group's items in conversation order. */
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
  const groups: TurnGroup[] = [];
  const byItemId = new Map<string, TurnGroup>();
  let ids: string[] = [];
  let openedBy: string | undefined;

  const close = () => {
    if (ids.length === 0) return;
    const group: TurnGroup = Object.freeze({ index: groups.length, itemIds: Object.freeze(ids), openedBy });
    groups.push(group);
    for (const id of ids) byItemId.set(id, group);
  };

  for (const item of items) {
    if (OPENS_TURN.has(item.type)) {
      close();
      ids = [];
      openedBy = item.id;
    }
    ids.push(item.id);
  }
  close();

  return Object.freeze({
    groups: Object.freeze(groups),
    current: groups.at(-1),
    groupOf: (itemId: string) => byItemId.get(itemId),
  });
}
