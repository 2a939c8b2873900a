// What a strategy took out of the list it received, kept from one build to the next. Strategies keep
// the items they leave alone and mostly repeat last build's work on a list that only grew (the same
// placeholders for the same results, the same turns dropped), so the items they took out are found
// by walking the two lists side by side from where last build's walk ended, not by a lookup per item.
import type { Items, StageContext } from "@ctxpipe/core";
import type { ItemSaving } from "./compression-report.js";
import { startsWith } from "./list-index.js";

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
   */
  of(items: Items, result: Items, context: StageContext): StrategyEffect | undefined {
    const last = this.#last;
    this.#last = undefined;
    const replacing = items.length === result.length;
    const resume = last !== undefined && last.replacing === replacing && startsWith(items, last.items, last.itemsLength) && startsWith(result, last.result, last.resultLength);
    // Nothing new on either side: last build's effect as it was.
    if (resume && items.length === last.itemsLength && result.length === last.resultLength) {
      this.#last = { ...last, items, result };
      return last.effect;
    }
    const savings = resume ? last.effect.savings.slice() : [];
    const positions = resume ? last.effect.positions.slice() : [];
    let saved = resume ? last.effect.saved : 0;
    let at = resume ? last.itemsLength : 0;
    let kept = resume ? last.resultLength : 0;
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
