// Turn groups of a list a compress tap derived from the input (a strategy's output), kept from one
// build to the next. Such a list is usually last build's list with a few items appended (the same
// objects in front), or with some items replaced in place under their ids (a result cleared on the
// turn the cut moves): only the new items are placed, and the groups they did not touch keep their
// objects, so per-group work keyed by group (FitBudgetPlugin's costs) is reused too.
import type { Item } from "../model/item.js";
import { type TurnGroups, TurnGroupsBuilder } from "../model/turn-groups.js";
import { notedPrefix } from "./list-lineage.js";
import type { Items } from "./pipeline-hooks.js";
import type { StageContext } from "./stage-context.js";

// Lists are not changed once a stage has made them: the groups of one list are worked out once, for
// every cache that is asked (the chain's own and FitBudgetPlugin's, for the chain's output).
const known = new WeakMap<Items, { readonly length: number; readonly turns: TurnGroups }>();

export class TurnGroupsCache {
  #items: Items = [];
  #length = 0;
  #builder: TurnGroupsBuilder | undefined;

  /** The turn groups of `items`: the build's own for its input, else the last call's extended by what was appended. */
  of(items: Items, context: Pick<StageContext, "inputItems" | "turns">): TurnGroups {
    if (items === context.inputItems) return context.turns;
    const shared = known.get(items);
    if (shared !== undefined && shared.length === items.length) return shared.turns;
    let builder = this.#builder;
    if (builder !== undefined && groupsAlike(items, this.#items, this.#length)) builder.append(items, this.#length);
    else {
      builder = new TurnGroupsBuilder();
      builder.append(items, 0);
    }
    const turns = builder.result();
    this.#items = items;
    this.#length = items.length;
    this.#builder = builder;
    known.set(items, { length: items.length, turns });
    return turns;
  }
}

/**
 * Whether `next` starts with items that fall into the same groups as the first `length` of
 * `previous`: the same objects, or replacements under the same id and type that tie the same calls
 * (a placeholder keeps its result's call id; a cut text keeps its message's calls).
 */
function groupsAlike(next: Items, previous: Items, length: number): boolean {
  if (next.length < length || previous.length < length) return false;
  if (next === previous) return true;
  // Where the two lists were noted to hold the same objects, they fall into the same groups.
  for (let index = Math.min(notedPrefix(next, previous), length); index < length; index++) {
    const a = next[index]!;
    const b = previous[index]!;
    if (a === b) continue;
    if (a.id !== b.id || a.type !== b.type || !sameTies(a, b)) return false;
  }
  return true;
}

function sameTies(a: Item, b: Item): boolean {
  if (a.type === "tool-result" && b.type === "tool-result") return a.callId === b.callId;
  if (a.type === "assistant" && b.type === "assistant") {
    if (a.toolCalls === b.toolCalls) return true;
    return a.toolCalls.length === b.toolCalls.length && a.toolCalls.every((call, index) => call.id === b.toolCalls[index]!.id);
  }
  return true;
}
