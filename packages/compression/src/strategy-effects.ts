// What a strategy took out of the list it received, kept from one build to the next. Strategies keep
// the items they leave alone and mostly repeat last build's work on a list that only grew (the same
// placeholders for the same results, the same turns dropped), so the items they took out are found
// by walking the two lists side by side from where last build's walk ended, not by a lookup per item.
import { type Items, type StageContext, sharedPrefixLength } from "@ctxpipe/core";
import type { ItemSaving } from "./compression-report.js";

export interface StrategyEffect {
  /** Per item taken out or replaced, in list order: what it saved (its tokens, less its replacement's). */
  readonly savings: ReadonlyArray<ItemSaving>;
  /** Sum of savings, less what items the strategy added cost. */
  readonly saved: number;
  /** Positions in the received list of the items taken out or replaced. */
  readonly positions: ReadonlyArray<number>;
  /** Found the slow way (a list with new items, or reordered): the checks look at the whole list. */
  readonly slow?: boolean;
}

interface Walk {
  /** Whether the result had the list's length (items replaced) or was shorter (items taken out). */
  readonly replacing: boolean;
  readonly items: Items;
  readonly itemsLength: number;
  readonly result: Items;
  readonly resultLength: number;
  readonly effect: StrategyEffect;
}

export class StrategyEffects {
  readonly #strategy: string;
  #last: Walk | undefined;

  constructor(strategy: string) {
    this.#strategy = strategy;
  }

  /**
   * The effect when `result` is `items` with some items replaced under their ids, or with some taken
   * out, order kept; undefined for any other result (the caller works it out the slow way).
   * `placeOf` is `items`' positions by id.
   */
  of(items: Items, result: Items, context: StageContext, placeOf: ReadonlyMap<string, number>): StrategyEffect | undefined {
    const last = this.#last;
    this.#last = undefined;
    const replacing = items.length === result.length;
    let savings: ItemSaving[] = [];
    let positions: number[] = [];
    let saved = 0;
    let at = 0;
    let kept = 0;
    if (last !== undefined && last.replacing === replacing) {
      // Last build's walk holds up to the first place where its list and this one part (an item
      // replaced by an earlier strategy, the end cut off) or its result and this one part (a result
      // cleared further on, a cut that moved: the window drops from the start).
      // (Read past what the lists were noted to share: the list index walked them side by side first.)
      const itemsParted = Math.min(sharedPrefixLength(items, last.items), items.length, last.itemsLength);
      const parted = Math.min(sharedPrefixLength(result, last.result), result.length, last.resultLength);
      // Nothing new on either side: last build's effect as it was.
      if (itemsParted === last.itemsLength && items.length === last.itemsLength && parted === last.resultLength && result.length === last.resultLength) {
        this.#last = { ...last, items, result };
        return last.effect;
      }
      // The walk stood at the result's item `parted` that many items of the list in, past the ones it
      // took out or replaced before it (positions, in list order); it goes on from there, or from
      // where the lists part if that is sooner.
      const before = last.effect.positions;
      let reached = parted;
      if (!replacing) for (let taken = 0; taken < before.length && before[taken]! <= reached; taken++) reached++;
      at = Math.min(reached, itemsParted);
      // A result that now starts sooner (the cut moved back): the walk goes on from its first new item.
      if (!replacing && parted < result.length) {
        const first = placeOf.get(result[parted]!.id);
        if (first !== undefined && first < at && items[first] === result[parted]) at = first;
      }
      const taken = countBelow(before, at);
      kept = replacing ? at : at - taken;
      // Last build's arrays go on growing when the walk keeps all they hold (the effect handed out
      // with them is last build's, which nothing reads any more); else the part that holds is copied.
      const whole = taken === before.length;
      savings = whole ? (last.effect.savings as ItemSaving[]) : last.effect.savings.slice(0, taken);
      positions = whole ? (before as number[]) : before.slice(0, taken);
      saved = last.effect.saved;
      for (let index = taken; index < last.effect.savings.length; index++) saved -= last.effect.savings[index]!.tokensSaved;
    }
    const strategy = this.#strategy;
    for (; at < items.length; at++) {
      const item = items[at]!;
      const other = result[kept];
      if (item === other) {
        kept++;
        continue;
      }
      if (replacing) {
        // Same length: only a replacement under the same id is this shape.
        if (other === undefined || other.id !== item.id) return undefined;
        const tokensSaved = context.countTokens(item) - context.countTokens(other);
        savings.push(Object.freeze({ id: item.id, strategy, tokensSaved }));
        saved += tokensSaved;
        kept++;
      } else {
        // Shorter: an item not next in the result was taken out (a reordered result fails below).
        const tokensSaved = context.countTokens(item);
        savings.push(Object.freeze({ id: item.id, strategy, tokensSaved }));
        saved += tokensSaved;
      }
      positions.push(at);
    }
    if (kept !== result.length) return undefined;
    const effect: StrategyEffect = { savings, saved, positions };
    this.#last = { replacing, items, itemsLength: items.length, result, resultLength: result.length, effect };
    return effect;
  }
}

/** How many of the ascending `positions` are below `position`: the index of the first at or past it. */
export function countBelow(positions: ReadonlyArray<number>, position: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle]! < position) low = middle + 1;
    else high = middle;
  }
  return low;
}
