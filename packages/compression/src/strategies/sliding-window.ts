// Sliding window: drops the oldest whole turn groups until the goal is met. Stops at the first
// protected group (the current loop, the newest messages), so what it keeps is always one unbroken
// stretch of the newest turns. Summaries at the front stay: they are what is left of older turns.
//
// In an agent loop the window drops thousands of old items every build, mostly the same ones as last
// build. So the strategy keeps, for the list it saw last, each group's droppable cost as a running sum
// (found again only for groups that changed), finds the cut by a binary search, and records the drops
// as one run of the report; when the dropped groups are the list's first items, the kept list is the
// rest of it, and the same cut hands the run the same id array as last build.
import { type Item, type Items, recordDecisionRun, type Tokenizer, type TurnGroup } from "@ctxpipe/core";
import { z } from "zod";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";

export const slidingWindowSettingsSchema = z.strictObject({
  type: z.literal("sliding-window"),
  /** Names the strategy in the report. Default "sliding-window". */
  name: z.string().min(1).default("sliding-window"),
});

export type SlidingWindowSettings = z.input<typeof slidingWindowSettingsSchema>;

export function slidingWindow(settings: Omit<SlidingWindowSettings, "type"> = {}): CompressionStrategy {
  const { name } = slidingWindowSettingsSchema.parse({ ...settings, type: "sliding-window" });
  const sums = new GroupSums();
  return {
    name,
    compress(items: Items, context: CompressionContext): Items | undefined {
      const known = sums.of(items, context);
      const cut = Math.min(known.firstReaching(context.remaining, context), context.firstProtectedGroup());
      if (known.dropped(cut) === 0) return undefined;
      const reason = `the oldest turns went to bring the request from ${context.usage} toward ${Math.round(context.target)} tokens`;
      const prefix = known.prefixOf(cut);
      if (prefix !== undefined) {
        recordDecisionRun(context.build, name, { decision: "dropped", ids: prefix, reason });
        return items.slice(prefix.length);
      }
      // The dropped groups are not the list's first items (a late result, a summary in front): by id.
      const dropped = new Set<string>();
      for (let index = 0; index < cut; index++) for (const id of known.group(index).itemIds) dropped.add(id);
      const ids: string[] = [];
      const kept: Item[] = [];
      for (const item of items) {
        if (dropped.has(item.id) && !keptAlways(item)) ids.push(item.id);
        else kept.push(item);
      }
      recordDecisionRun(context.build, name, { decision: "dropped", ids, reason });
      return kept;
    },
  };
}

/** Summaries and stored system messages are never dropped: a group of nothing else is passed over. */
function keptAlways(item: Item): boolean {
  return item.type === "summary" || item.type === "system";
}

/**
 * Per turn group of the list (oldest first), kept from one build to the next while the list starts
 * with last build's objects: the droppable cost and item count of the groups before it, and whether
 * they are exactly the list's first items with nothing kept always among them.
 */
class GroupSums {
  #items: Items = [];
  #length = 0;
  #tokenizer: Tokenizer | undefined;
  #groups: TurnGroup[] = [];
  /** #cost[g]: droppable cost of groups 0..g-1 (#cost[0] = 0); as many entries as groups summed, plus one. */
  #cost: number[] = [0];
  /** #count[g]: droppable items of groups 0..g-1. */
  #count: number[] = [0];
  /** #plain[g]: groups 0..g-1 are the list's first #count[g] items, none of them kept always. */
  #plain: boolean[] = [true];
  /** The ids of the list's first items, extended as a plain cut needs them, and the last cut's copy of them. */
  #ids: string[] = [];
  #prefix: ReadonlyArray<string> = [];
  #groupsNow: ReadonlyArray<TurnGroup> = [];
  #itemsNow: Items = [];

  of(items: Items, context: CompressionContext): this {
    const groups = context.turns.groups;
    const tokenizer = context.build.tokenizer;
    // Groups summed for last build's list stay valid for this one when the group objects are the same
    // (a group that gained a late result is a new object) and its items are: the list starts with
    // last build's objects, or the groups are the list's first items and end before the first one an
    // earlier strategy replaced (a result cleared on the turn the cut moves).
    let valid = 0;
    if (tokenizer === this.#tokenizer) {
      const previous = this.#items;
      const shared = Math.min(items.length, this.#length);
      let same = 0;
      while (same < shared && items[same] === previous[same]) same++;
      const grown = same === this.#length;
      const limit = Math.min(groups.length, this.#groups.length);
      while (valid < limit && groups[valid] === this.#groups[valid] && (grown || (this.#plain[valid + 1]! && this.#count[valid + 1]! <= same))) valid++;
      // Ids kept for the list's first items hold up to the first one that is not the same object.
      if (this.#ids.length > same) this.#ids.length = same;
      if (this.#prefix.length > same) this.#prefix = [];
    } else {
      // Ids kept for another list's first items would be wrong for this one.
      this.#ids = [];
      this.#prefix = [];
    }
    this.#groups.length = valid;
    this.#cost.length = valid + 1;
    this.#count.length = valid + 1;
    this.#plain.length = valid + 1;
    this.#items = items;
    this.#length = items.length;
    this.#tokenizer = tokenizer;
    this.#groupsNow = groups;
    this.#itemsNow = items;
    return this;
  }

  group(index: number): TurnGroup {
    return this.#groupsNow[index]!;
  }

  /** The number of groups to drop so that their droppable cost reaches `remaining` (all of them when it never does). */
  firstReaching(remaining: number, context: CompressionContext): number {
    // Groups past the cut are never summed: the walk stops once the cost reaches `remaining`.
    if (this.#cost.at(-1)! < remaining) this.#extend(remaining, context);
    // The first g with cost[g] >= remaining, among those summed (cost never falls).
    let low = 0;
    let high = this.#cost.length - 1;
    if (this.#cost[high]! < remaining) return high;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#cost[middle]! >= remaining) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** Droppable items in groups 0..cut-1. */
  dropped(cut: number): number {
    return this.#count[cut]!;
  }

  /** The ids of the list's first items when groups 0..cut-1 are exactly those, none kept always; else undefined. */
  prefixOf(cut: number): ReadonlyArray<string> | undefined {
    if (!this.#plain[cut]) return undefined;
    const length = this.#count[cut]!;
    // The same cut as last build: the same array, so the chain sees the same decisions.
    if (this.#prefix.length !== length) {
      const items = this.#itemsNow;
      for (let position = this.#ids.length; position < length; position++) this.#ids.push(items[position]!.id);
      this.#prefix = Object.freeze(this.#ids.slice(0, length));
    }
    return this.#prefix;
  }

  /** Sums groups on until every group is summed or the cost reaches `remaining`. */
  #extend(remaining: number, context: CompressionContext): void {
    const groups = this.#groupsNow;
    const items = this.#itemsNow;
    for (let index = this.#groups.length; index < groups.length && this.#cost.at(-1)! < remaining; index++) {
      const group = groups[index]!;
      let cost = this.#cost.at(-1)!;
      let count = this.#count.at(-1)!;
      let plain = this.#plain.at(-1)!;
      for (const id of group.itemIds) {
        const item = context.itemById(id)!;
        if (keptAlways(item)) {
          plain = false;
          continue;
        }
        // Plain while the groups so far cover the list's first items in order.
        if (plain && items[count] !== item) plain = false;
        cost += context.estimate(item);
        count++;
      }
      this.#groups.push(group);
      this.#cost.push(cost);
      this.#count.push(count);
      this.#plain.push(plain);
    }
  }
}
