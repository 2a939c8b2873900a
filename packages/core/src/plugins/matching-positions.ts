// Where in a stage's list the items a plugin acts on are, kept per lane from one build to the next:
// an agent loop's list is last build's with a few items appended, so only the items past what the two
// lists share are looked at again (asking every item of a long history costs more than the rest of the
// stage). The question must depend on the item object alone, never on its neighbours or the build.
import type { Item } from "../model/item.js";
import type { Lane } from "../pipeline/build-context.js";
import { sharedPrefixLength } from "../pipeline/list-lineage.js";
import type { Items } from "../pipeline/pipeline-hooks.js";

interface Last {
  /** Kept without a copy: lists handed between stages are not changed once made, so `length` says what was seen. */
  readonly items: Items;
  readonly length: number;
  readonly positions: ReadonlyArray<number>;
}

const NONE: ReadonlyArray<number> = [];

export class MatchingPositions {
  readonly #matches: (item: Item) => boolean;
  readonly #last = new Map<Lane, Last>();

  constructor(matches: (item: Item) => boolean) {
    this.#matches = matches;
  }

  /** The positions of `items` whose item matches, in order. */
  of(items: Items, lane: Lane): ReadonlyArray<number> {
    const last = this.#last.get(lane);
    let shared = 0;
    let positions: ReadonlyArray<number> = NONE;
    if (last !== undefined) {
      shared = Math.min(last.length, last.items === items ? items.length : sharedPrefixLength(items, last.items));
      positions = last.positions;
      if (positions.length > 0 && positions.at(-1)! >= shared) positions = positions.filter((position) => position < shared);
    }
    if (shared < items.length) {
      let added: number[] | undefined;
      for (let position = shared; position < items.length; position++) {
        if (!this.#matches(items[position]!)) continue;
        added ??= positions.slice();
        added.push(position);
      }
      if (added !== undefined) positions = added;
    }
    this.#last.set(lane, { items, length: items.length, positions });
    return positions;
  }
}

/** The items but those at `positions` (in order), copied in runs between them. */
export function withoutPositions(items: Items, positions: ReadonlyArray<number>): Item[] {
  const kept: Item[] = [];
  let from = 0;
  for (const position of positions) {
    for (let at = from; at < position; at++) kept.push(items[at]!);
    from = position + 1;
  }
  for (let at = from; at < items.length; at++) kept.push(items[at]!);
  return kept;
}
