// What the chain needs to know about a list it hands a strategy (positions by id, turn groups, pinned
// ids, estimated usage), kept per place in the chain from one build to the next. An agent loop's list
// is last build's list with a few items appended: only those are looked at again.
import { estimateItemTokens, isPinned, type Items, type StageContext, type Tokenizer, type TurnGroups, TurnGroupsCache } from "@ctxpipe/core";

export interface IndexedList {
  readonly items: Items;
  readonly positions: ReadonlyMap<string, number>;
  readonly turns: TurnGroups;
  /** Ids of the pinned items, in order. */
  readonly pinned: ReadonlyArray<string>;
  /** Whether a summary item is in the list. */
  readonly hasSummary: boolean;
  /** The items' estimated tokens (estimateItemTokens), the fixed parts of the request not included. */
  readonly itemTokens: number;
}

export class ListIndex {
  #items: Items = [];
  #length = 0;
  #tokenizer: Tokenizer | undefined;
  #positions = new Map<string, number>();
  #pinned: string[] = [];
  #summaries = 0;
  #itemTokens = 0;
  readonly #turns = new TurnGroupsCache();

  of(items: Items, context: StageContext): IndexedList {
    const same = items === this.#items && items.length === this.#length && context.tokenizer === this.#tokenizer;
    if (!same) {
      // A list that only grew, or whose first items were replaced in place under their ids (a result
      // cleared on the turn the cut moves), keeps its positions: only the replaced and new items are looked at.
      const kept = context.tokenizer === this.#tokenizer && this.#replacedInPlace(items, context);
      const from = kept ? this.#length : 0;
      if (!kept) {
        // A new Map: an IndexedList handed out earlier keeps answering for its own list.
        this.#positions = new Map();
        this.#pinned = [];
        this.#summaries = 0;
        this.#itemTokens = 0;
      }
      for (let position = from; position < items.length; position++) {
        const item = items[position]!;
        this.#positions.set(item.id, position);
        if (isPinned(item)) this.#pinned.push(item.id);
        if (item.type === "summary") this.#summaries++;
        this.#itemTokens += estimateItemTokens(item, context);
      }
      this.#items = items;
      this.#length = items.length;
      this.#tokenizer = context.tokenizer;
    }
    return {
      items,
      positions: this.#positions,
      turns: this.#turns.of(items, context),
      pinned: this.#pinned,
      hasSummary: this.#summaries > 0,
      itemTokens: this.#itemTokens,
    };
  }

  /**
   * Whether `items` holds the last list's first items at their places: the same objects, or others
   * under the same id that are pinned alike (the positions and pinned ids hold); if so, the counts
   * are brought up to date for the replaced ones.
   */
  #replacedInPlace(items: Items, context: StageContext): boolean {
    const previous = this.#items;
    const length = this.#length;
    if (items.length < length || previous.length < length) return false;
    if (items === previous) return true;
    let summaries = 0;
    let tokens = 0;
    for (let index = 0; index < length; index++) {
      const item = items[index]!;
      const before = previous[index]!;
      if (item === before) continue;
      if (item.id !== before.id || isPinned(item) !== isPinned(before)) return false;
      summaries += (item.type === "summary" ? 1 : 0) - (before.type === "summary" ? 1 : 0);
      tokens += estimateItemTokens(item, context) - estimateItemTokens(before, context);
    }
    this.#summaries += summaries;
    this.#itemTokens += tokens;
    return true;
  }
}

/**
 * Whether `next` starts with the first `length` objects of `previous` (its length when it was kept:
 * lists handed between stages are not changed once made, so they are kept without a copy).
 */
export function startsWith<T>(next: ReadonlyArray<T>, previous: ReadonlyArray<T>, length = previous.length): boolean {
  if (next.length < length || previous.length < length) return false;
  if (next === previous) return true;
  for (let index = 0; index < length; index++) if (next[index] !== previous[index]) return false;
  return true;
}
