// Parses, orders and groups build() input. An agent loop hands the same history back every turn with a
// few messages appended, so when the input starts with exactly the objects of the last build's input,
// only the new ones are parsed, ordered and placed in turn groups. Anything else starts over.
import type { Item, ItemInput } from "../model/item.js";
import { orderItems, timeOf } from "../model/order-items.js";
import { type DuplicateItem, type ParsedInput, parseInput, parseItem, RESERVED_ID_PREFIX } from "../model/parse-items.js";
import { type TurnGroups, TurnGroupsBuilder } from "../model/turn-groups.js";

export interface PreparedInput extends ParsedInput {
  /** The items in conversation order. */
  readonly ordered: ReadonlyArray<Item>;
  readonly turns: TurnGroups;
}

interface Previous {
  /** A copy of the input array: the caller may append to its own array in place. */
  readonly inputs: ReadonlyArray<ItemInput>;
  readonly prepared: PreparedInput;
  readonly firstIndexById: Map<string, number>;
  /** Whether ordering left the parsed items as they were, and the last date among them. */
  readonly inInputOrder: boolean;
  readonly lastTime: number;
  readonly groups: TurnGroupsBuilder;
}

/** Whether `next` starts with the same objects as `previous`. */
export function startsWith<T>(next: ReadonlyArray<T>, previous: ReadonlyArray<T>): boolean {
  if (next.length < previous.length) return false;
  for (let index = 0; index < previous.length; index++) if (next[index] !== previous[index]) return false;
  return true;
}

/** How many first items the two lists share (the same objects). */
export function sharedPrefixLength<T>(next: ReadonlyArray<T>, previous: ReadonlyArray<T>): number {
  const limit = Math.min(next.length, previous.length);
  let shared = 0;
  while (shared < limit && next[shared] === previous[shared]) shared++;
  return shared;
}

export class InputPreparer {
  #previous: Previous | undefined;

  prepare(inputs: ReadonlyArray<ItemInput>): PreparedInput {
    const previous = this.#previous;
    this.#previous = undefined;
    const appended = previous !== undefined && Array.isArray(inputs) && startsWith(inputs, previous.inputs) ? this.#append(inputs, previous) : undefined;
    if (appended !== undefined) {
      this.#previous = appended;
      return appended.prepared;
    }
    const parsed = parseInput(inputs);
    const ordered = orderItems(parsed.items);
    const groups = new TurnGroupsBuilder();
    groups.append(ordered, 0);
    const prepared: PreparedInput = { ...parsed, ordered, turns: groups.result() };
    const inInputOrder = parsed.items.every((item, index) => ordered[index] === item);
    const firstIndexById = new Map<string, number>();
    for (let index = 0; index < parsed.items.length; index++) firstIndexById.set(parsed.items[index]!.id, parsed.indexes[index]!);
    for (const copy of parsed.duplicates) firstIndexById.set(copy.item.id, copy.firstIndex);
    this.#previous = { inputs: inputs.slice(), prepared, firstIndexById, inInputOrder, lastTime: lastTimeOf(parsed.items, parsed.items.length), groups };
    return prepared;
  }

  /** The previous preparation extended by inputs[previous.inputs.length..], or undefined to start over. */
  #append(inputs: ReadonlyArray<ItemInput>, previous: Previous): Previous | undefined {
    if (!previous.inInputOrder) return undefined;
    const from = previous.inputs.length;
    const added: Item[] = [];
    const addedIndexes: number[] = [];
    const duplicates: DuplicateItem[] = [];
    const seen = new Map<string, number>();
    let lastTime = previous.lastTime;
    for (let index = from; index < inputs.length; index++) {
      const item = parseItem(inputs[index] as ItemInput, index);
      // Invalid items, reserved ids, repeated ids and out-of-order dates take the full path, which
      // reports or places them exactly as a first build would.
      if (Array.isArray(item) || item.id.startsWith(RESERVED_ID_PREFIX) || previous.firstIndexById.has(item.id) || seen.has(item.id)) return undefined;
      if (item.createdAt !== undefined) {
        const time = timeOf(item, item.createdAt);
        if (time < lastTime) return undefined;
        lastTime = time;
      }
      seen.set(item.id, index);
      added.push(item);
      addedIndexes.push(index);
    }
    for (const [id, index] of seen) previous.firstIndexById.set(id, index);
    const before = previous.prepared;
    const items = before.items.concat(added);
    previous.groups.append(items, before.items.length);
    const prepared: PreparedInput = {
      items,
      indexes: before.indexes.concat(addedIndexes),
      duplicates: before.duplicates.length === 0 ? duplicates : before.duplicates.slice(),
      ordered: items,
      turns: previous.groups.result(),
    };
    return { ...previous, inputs: inputs.slice(), prepared, lastTime };
  }
}

function lastTimeOf(items: ReadonlyArray<Item>, end: number): number {
  for (let index = end - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.createdAt !== undefined) return timeOf(item, item.createdAt);
  }
  return Number.NEGATIVE_INFINITY;
}
