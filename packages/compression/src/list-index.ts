// What the chain needs to know about a list it hands a strategy (positions by id, turn groups, pinned
// ids, estimated usage), kept per place in the chain from one build to the next. An agent loop's list
// is last build's list with a few items appended: only those are looked at again.
import { estimateItemTokens, isPinned, type Items, notedPrefix, notePrefix, type StageContext, sharedPrefixLength, type Tokenizer, type TurnGroups, TurnGroupsCache } from "@ctxpipe/core";

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
      const change = context.tokenizer === this.#tokenizer ? this.#replacedInPlace(items, context) : undefined;
      const from = change === undefined ? 0 : this.#length;
      // A new Map otherwise: an IndexedList handed out earlier keeps answering for its own list.
      const positions = change === undefined ? new Map<string, number>() : this.#positions;
      const pinned = change === undefined ? [] : this.#pinned;
      let summaries = change === undefined ? 0 : this.#summaries + change.summaries;
      let itemTokens = change === undefined ? 0 : this.#itemTokens + change.tokens;
      // Until the list is indexed whole the index holds none: a count that throws half-way leaves the
      // next call an empty index, not one with some items counted twice.
      this.#items = [];
      this.#length = 0;
      this.#positions = new Map();
      this.#pinned = [];
      this.#summaries = 0;
      this.#itemTokens = 0;
      for (let position = from; position < items.length; position++) {
        const item = items[position]!;
        positions.set(item.id, position);
        if (isPinned(item)) pinned.push(item.id);
        if (item.type === "summary") summaries++;
        itemTokens += estimateItemTokens(item, context);
      }
      this.#positions = positions;
      this.#pinned = pinned;
      this.#summaries = summaries;
      this.#itemTokens = itemTokens;
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
   * When `items` holds the last list's first items at their places (the same objects, or others under
   * the same id that are pinned alike: the positions and pinned ids hold), what the replaced ones
   * change in the counts; undefined when it does not.
   */
  #replacedInPlace(items: Items, context: StageContext): { readonly summaries: number; readonly tokens: number } | undefined {
    const previous = this.#items;
    const length = this.#length;
    if (items.length < length || previous.length < length) return undefined;
    let summaries = 0;
    let tokens = 0;
    if (items === previous) return { summaries, tokens };
    // What the two lists were noted to share is the same objects: the walk starts past it, and notes
    // how far they are the same for the other walks over them (turn groups, the strategy's effect).
    let unchanged = length;
    for (let index = Math.min(notedPrefix(items, previous), length); index < length; index++) {
      const item = items[index]!;
      const before = previous[index]!;
      if (item === before) continue;
      if (item.id !== before.id || isPinned(item) !== isPinned(before)) return undefined;
      if (unchanged === length) unchanged = index;
      summaries += (item.type === "summary" ? 1 : 0) - (before.type === "summary" ? 1 : 0);
      tokens += estimateItemTokens(item, context) - estimateItemTokens(before, context);
    }
    notePrefix(items, previous, unchanged);
    return { summaries, tokens };
  }
}

/**
 * Whether `next` starts with the first `length` objects of `previous` (its length when it was kept:
 * lists handed between stages are not changed once made, so they are kept without a copy).
 */
export function startsWith<T>(next: ReadonlyArray<T>, previous: ReadonlyArray<T>, length = previous.length): boolean {
  if (next.length < length || previous.length < length) return false;
  // core's comparison, which reads only past what the two lists were noted to share.
  return next === previous || sharedPrefixLength(next, previous) >= length;
}
