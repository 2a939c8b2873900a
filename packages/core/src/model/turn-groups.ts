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
  // Each item's group index, filled lazily: groupOf() is asked about the newest items and a few
  // others, so the groups are indexed newest first as far as an answer needs, not all ten thousand
  // ids of a history the process has not seen (V8 fills a map that large far slower than a small one).
  // Every id of the groups from #indexedFrom on is in it.
  readonly #byItemId = new Map<string, number>();
  #indexedFrom = Number.POSITIVE_INFINITY;
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
      if (group >= this.#indexedFrom) this.#byItemId.set(item.id, group);
      this.#changed.add(group);
    }
  }

  result(): TurnGroups {
    for (const index of this.#changed) {
      const ids = this.#groupIds[index]!;
      const group: TurnGroup = Object.freeze({ index, itemIds: Object.freeze(ids.slice()), openedBy: this.#openers[index] });
      this.#groups[index] = group;
    }
    this.#changed.clear();
    const groups = Object.freeze(this.#groups.slice());
    return Object.freeze({
      groups,
      current: groups.at(-1),
      groupOf: (itemId: string) => {
        const index = this.#indexOf(itemId);
        return index === undefined ? undefined : groups[index];
      },
    });
  }

  /** The index of the group an id was placed in; indexes older groups, newest first, until it is found. */
  #indexOf(itemId: string): number | undefined {
    const byItemId = this.#byItemId;
    const known = byItemId.get(itemId);
    if (known !== undefined) return known;
    let found: number | undefined;
    while (found === undefined && this.#indexedFrom > 0) {
      const index = Math.min(this.#indexedFrom, this.#groupIds.length) - 1;
      if (index < 0) break;
      // An id placed twice keeps the newest group, as when every group was indexed in order.
      for (const id of this.#groupIds[index]!) if (!byItemId.has(id)) byItemId.set(id, index);
      this.#indexedFrom = index;
      if (byItemId.has(itemId)) found = byItemId.get(itemId);
    }
    return found;
  }
}
