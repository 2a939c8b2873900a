// What each turn group of the input costs, kept from one build to the next. An agent loop's input is
// last turn's input with a few items appended: the groups it already had keep their objects (or only
// gained ids at the end), so a rebuild estimates only the new items, and finding the cut point walks
// one number per group instead of one lookup per item.
import { isPinned } from "../model/is-pinned.js";
import type { Item } from "../model/item.js";
import type { TurnGroup } from "../model/turn-groups.js";
import type { Items } from "../pipeline/pipeline-hooks.js";
import { startsWith } from "../pipeline/input-preparer.js";
import type { StageContext } from "../pipeline/stage-context.js";
import type { Tokenizer } from "../spec/tokenizer.js";

export interface GroupCostsView {
  /** Estimated tokens of each group's items. */
  readonly cost: ReadonlyArray<number>;
  /** Items in each group. */
  readonly count: ReadonlyArray<number>;
  /** The highest position in the list among each group's items. */
  readonly lastPosition: ReadonlyArray<number>;
  /** How many of each group's items are pinned: the cut passes over a group with any. */
  readonly pinned: ReadonlyArray<number>;
  /** Sum of cost. */
  readonly total: number;
  /** An item's position in the list. */
  positionOf(id: string): number | undefined;
}

interface State extends GroupCostsView {
  readonly tokenizer: Tokenizer;
  readonly items: Items;
  readonly groups: ReadonlyArray<TurnGroup>;
  readonly cost: number[];
  readonly count: number[];
  readonly lastPosition: number[];
  readonly pinned: number[];
  readonly positions: Map<string, number>;
}

export class GroupCosts {
  #last: State | undefined;

  /** The costs of `groups` over `items`, reusing the last call's when `items` only grew. */
  of(items: Items, groups: ReadonlyArray<TurnGroup>, context: Pick<StageContext, "tokenizer" | "countTokens">, estimate: (item: Item, context: Pick<StageContext, "countTokens">) => number): GroupCostsView {
    const last = this.#last;
    const reuse = last !== undefined && last.tokenizer === context.tokenizer && last.groups.length <= groups.length && startsWith(items, last.items);
    // Last call's arrays are brought up to date in place (nothing but this memo keeps a view from one
    // build to the next): forgotten first, so that an estimate that throws half-way leaves none.
    this.#last = undefined;
    const positions = reuse ? last.positions : new Map<string, number>();
    for (let position = reuse ? last.items.length : 0; position < items.length; position++) positions.set(items[position]!.id, position);
    const cost: number[] = reuse ? last.cost : [];
    const count: number[] = reuse ? last.count : [];
    const lastPosition: number[] = reuse ? last.lastPosition : [];
    const pinned: number[] = reuse ? last.pinned : [];
    let total = reuse ? last.total : 0;
    for (let index = 0; index < groups.length; index++) {
      const group = groups[index]!;
      if (reuse && index < last.groups.length && last.groups[index] === group) continue;
      // A group only ever gains ids at its end while the list grows: count the new ones.
      const from = reuse && index < last.groups.length ? count[index]! : 0;
      if (from === 0) {
        cost[index] = 0;
        lastPosition[index] = -1;
        pinned[index] = 0;
      }
      for (let at = from; at < group.itemIds.length; at++) {
        const position = positions.get(group.itemIds[at]!)!;
        const item = items[position]!;
        const tokens = estimate(item, context);
        if (isPinned(item)) pinned[index]!++;
        cost[index]! += tokens;
        total += tokens;
        if (position > lastPosition[index]!) lastPosition[index] = position;
      }
      count[index] = group.itemIds.length;
    }
    const state: State = {
      tokenizer: context.tokenizer,
      items,
      groups,
      cost,
      count,
      lastPosition,
      pinned,
      total,
      positions,
      positionOf: (id) => positions.get(id),
    };
    this.#last = state;
    return state;
  }
}
