// Parses, orders and groups build() input. An agent loop hands the same history back every turn with a
// few messages appended, so when the input starts with exactly the objects of the last build's input,
// only the new ones are parsed, ordered and placed in turn groups. Anything else starts over.
import type { Item, ItemInput } from "../model/item.js";
import { orderItems, timeOf } from "../model/order-items.js";
import { dateWarning, type ParsedInput, parseInput, parseItem, RESERVED_ID_PREFIX } from "../model/parse-items.js";
import { type TurnGroups, TurnGroupsBuilder } from "../model/turn-groups.js";
import type { InputOrder } from "./build-options.js";
import type { OrderReport } from "./build-report.js";
import { notedPrefix, notePrefix } from "./list-lineage.js";

export interface PreparedInput extends Omit<ParsedInput, "items" | "indexes"> {
  readonly items: ReadonlyArray<Item>;
  /** For each item, the input index of the record it is; undefined when that is its position (nothing set aside). */
  readonly indexes: ReadonlyArray<number> | undefined;
  /** The items in conversation order. */
  readonly ordered: ReadonlyArray<Item>;
  readonly turns: TurnGroups;
  readonly order: OrderReport;
}

interface Previous {
  /**
   * The input array as it was: the caller may append to its own array in place. The items list when
   * every item is its input object (an agent loop's stored records, parsed before), else a copy.
   */
  readonly inputs: ReadonlyArray<ItemInput>;
  readonly itemsAreInputs: boolean;
  readonly prepared: PreparedInput;
  readonly ids: Set<string>;
  /** Whether ordering left the parsed items as they were, and the last date among them. */
  readonly inInputOrder: boolean;
  readonly lastTime: number;
  readonly groups: TurnGroupsBuilder;
}

/** Whether `next` starts with the same objects as the first `length` of `previous` (all of it by default). */
export function startsWith<T>(next: ReadonlyArray<T>, previous: ReadonlyArray<T>, length = previous.length): boolean {
  if (next.length < length || previous.length < length) return false;
  if (next === previous) return true;
  // What the lists were noted to share (lists the pipeline made: never the caller's) is not read again.
  for (let index = Math.min(notedPrefix(next, previous), length); index < length; index++) if (next[index] !== previous[index]) return false;
  return true;
}

export class InputPreparer {
  #previous: Previous | undefined;

  prepare(inputs: ReadonlyArray<ItemInput>, order: InputOrder = "createdAt"): PreparedInput {
    const previous = this.#previous;
    this.#previous = undefined;
    const appended =
      previous !== undefined && previous.prepared.order.by === order && Array.isArray(inputs) && startsWith(inputs, previous.inputs) ? this.#append(inputs, previous) : undefined;
    if (appended !== undefined) {
      this.#previous = appended;
      return appended.prepared;
    }
    const parsed = parseInput(inputs);
    const ordered = order === "input" ? parsed.items : orderItems(parsed.items);
    const groups = new TurnGroupsBuilder();
    groups.append(ordered, 0);
    let moved = 0;
    for (let index = 0; index < ordered.length; index++) if (ordered[index] !== parsed.items[index]) moved++;
    // With nothing set aside, each item's input index is its position: no list of them is made (and
    // kept for the next build).
    const prepared: PreparedInput = { ...parsed, indexes: parsed.setAside.length === 0 ? undefined : parsed.indexes, ordered, turns: groups.result(), order: { by: order, moved } };
    const ids = new Set(parsed.items.map((item) => item.id));
    const itemsAreInputs = parsed.items.length === inputs.length && parsed.items.every((item, index) => item === inputs[index]);
    this.#previous = { inputs: itemsAreInputs ? parsed.items : inputs.slice(), itemsAreInputs, prepared, ids, inInputOrder: moved === 0, lastTime: lastTimeOf(parsed.items), groups };
    return prepared;
  }

  /** The previous preparation extended by inputs[previous.inputs.length..], or undefined to start over. */
  #append(inputs: ReadonlyArray<ItemInput>, previous: Previous): Previous | undefined {
    if (!previous.inInputOrder) return undefined;
    const byDate = previous.prepared.order.by === "createdAt";
    const from = previous.inputs.length;
    const added: Item[] = [];
    const warnings: string[] = [];
    const seen = new Set<string>();
    let itemsAreInputs = previous.itemsAreInputs;
    let lastTime = previous.lastTime;
    for (let index = from; index < inputs.length; index++) {
      const item = parseItem(inputs[index] as ItemInput, index);
      // Invalid items, reserved ids, repeated ids (copies, edits) and out-of-order dates take the full
      // path, which reports or places them exactly as a first build would.
      if (Array.isArray(item) || item.id.startsWith(RESERVED_ID_PREFIX) || previous.ids.has(item.id) || seen.has(item.id)) return undefined;
      if (item.createdAt !== undefined) {
        const time = timeOf(item, item.createdAt);
        if (Number.isNaN(time)) warnings.push(dateWarning(item, index)!);
        else if (byDate) {
          if (time < lastTime) return undefined;
          lastTime = time;
        }
      }
      seen.add(item.id);
      added.push(item);
      if (item !== inputs[index]) itemsAreInputs = false;
    }
    for (const id of seen) previous.ids.add(id);
    const before = previous.prepared;
    const items = before.items.concat(added);
    notePrefix(items, before.items, before.items.length);
    previous.groups.append(items, before.items.length);
    // Every new input became an item, in order.
    const indexes = before.indexes?.concat(added.map((_, offset) => from + offset));
    const prepared: PreparedInput = {
      items,
      indexes,
      setAside: before.setAside.length === 0 ? before.setAside : before.setAside.slice(),
      warnings: warnings.length === 0 ? before.warnings : before.warnings.concat(warnings),
      ordered: items,
      turns: previous.groups.result(),
      order: before.order,
    };
    return { ...previous, inputs: itemsAreInputs ? items : inputs.slice(), itemsAreInputs, prepared, lastTime };
  }
}

/** The date of the last dated item, or -Infinity when none has one. */
function lastTimeOf(items: ReadonlyArray<Item>): number {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.createdAt === undefined) continue;
    const time = timeOf(item, item.createdAt);
    if (!Number.isNaN(time)) return time;
  }
  return Number.NEGATIVE_INFINITY;
}
