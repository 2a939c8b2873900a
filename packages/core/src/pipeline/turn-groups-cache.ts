// Turn groups of a list a compress tap derived from the input (a strategy's output), kept from one
// build to the next. Such a list is usually last build's list with a few items appended (the same
// objects in front): only the new items are placed, and the groups they did not touch keep their
// objects, so per-group work keyed by group (FitBudgetPlugin's costs) is reused too.
import type { Item } from "../model/item.js";
import { type TurnGroups, TurnGroupsBuilder } from "../model/turn-groups.js";
import { startsWith } from "./input-preparer.js";
import type { Items } from "./pipeline-hooks.js";
import type { StageContext } from "./stage-context.js";

export class TurnGroupsCache {
  #items: ReadonlyArray<Item> = [];
  #source: Items | undefined;
  #builder: TurnGroupsBuilder | undefined;
  #turns: TurnGroups | undefined;

  /** The turn groups of `items`: the build's own for its input, else the last call's extended by what was appended. */
  of(items: Items, context: Pick<StageContext, "inputItems" | "turns">): TurnGroups {
    if (items === context.inputItems) return context.turns;
    if (items === this.#source && items.length === this.#items.length && this.#turns !== undefined) return this.#turns;
    let builder = this.#builder;
    if (builder !== undefined && startsWith(items, this.#items)) builder.append(items, this.#items.length);
    else {
      builder = new TurnGroupsBuilder();
      builder.append(items, 0);
    }
    const turns = builder.result();
    // A copy: a caller may append to its own array in place.
    this.#items = items.slice();
    this.#source = items;
    this.#builder = builder;
    this.#turns = turns;
    return turns;
  }
}
