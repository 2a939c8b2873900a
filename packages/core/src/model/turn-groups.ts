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
export const OPENS_TURN: ReadonlySet<Item["type"]> = new Set(["user", "user-intervention", "parent-message"]);

export function computeTurnGroups(items: ReadonlyArray<Item>): TurnGroups {
  const builder = new TurnGroupsBuilder();
  builder.append(items, 0);
  return builder.result();
}

/**
 * Groups items as they are appended, so a rebuild after new messages only places the new ones. A
 * result() shares unchanged group objects with the results before it; its groupOf() answers for the
 * items appended so far, so it is meant for the build it was made for.
 */
export class TurnGroupsBuilder {
  readonly #groupIds: string[][] = [];
  readonly #openers: Array<string | undefined> = [];
  readonly #groupOfCall = new Map<string, number>();
  readonly #byItemId = new Map<string, TurnGroup>();
  readonly #groups: TurnGroup[] = [];
  /** Groups that gained items since the last result(). */
  readonly #changed = new Set<number>();

  /** Places items[from..] after everything appended before. */
  append(items: ReadonlyArray<Item>, from: number): void {
    const groupIds = this.#groupIds;
    for (let position = from; position < items.length; position++) {
      const item = items[position]!;
      if (OPENS_TURN.has(item.type)) {
        groupIds.push([]);
        this.#openers.push(item.id);
      } else if (groupIds.length === 0) {
        // Items before the first user turn form a group of their own.
        groupIds.push([]);
        this.#openers.push(undefined);
      }
      let group = groupIds.length - 1;
      // An empty call id ties nothing: repair-orphans pairs such calls and results by position, within a turn.
      if (item.type === "assistant") for (const call of item.toolCalls) if (call.id !== "") this.#groupOfCall.set(call.id, group);
      // A result belongs with its call, even when a later user turn came in between.
      if (item.type === "tool-result" && item.callId !== "") group = this.#groupOfCall.get(item.callId) ?? group;
      groupIds[group]!.push(item.id);
      this.#changed.add(group);
    }
  }

  result(): TurnGroups {
    for (const index of this.#changed) {
      const ids = this.#groupIds[index]!;
      const group: TurnGroup = Object.freeze({ index, itemIds: Object.freeze(ids.slice()), openedBy: this.#openers[index] });
      this.#groups[index] = group;
      for (const id of ids) this.#byItemId.set(id, group);
    }
    this.#changed.clear();
    const groups = Object.freeze(this.#groups.slice());
    const byItemId = this.#byItemId;
    return Object.freeze({ groups, current: groups.at(-1), groupOf: (itemId: string) => byItemId.get(itemId) });
  }
}
