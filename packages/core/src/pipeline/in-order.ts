// How a list a stage tap returned relates to the list it was given, when it kept their order: which
// items it left out, added or replaced. Told apart in one walk over both lists; the walk is kept per
// tap and lane, so a rebuild whose lists start as last build's did walks only past what they share.
import type { Items } from "./pipeline-hooks.js";
import { isNotedList, sharedPrefixLength } from "./list-lineage.js";
import { RecordedInOrder } from "./recorded-in-order.js";

const NONE: ReadonlyArray<number> = [];

/** Returned lists that are told apart without a lookup per item allow at most this many new items. */
const MAX_INSERTED = 16;

export interface InOrder {
  /** Positions of `before` left out, as [start, end) runs in order: a window drops one long run. */
  readonly leftOut: ReadonlyArray<readonly [number, number]>;
  /** Positions in the returned list of items that are not in `before` (no id of `before` either). */
  readonly inserted: ReadonlyArray<number>;
  /**
   * New objects in the place of the item of `before` with their id (a cleared result), as [position
   * in the returned list, position in before].
   */
  readonly replaced: ReadonlyArray<readonly [number, number]>;
}

/**
 * One walk: both lists as they were (pipeline lists are not changed once made; the returned one is
 * copied, and the check hands the copy on as its accepted list, with parsed items put in the place of
 * the new and replacing items: `originals` keeps what the tap had there).
 */
interface Walk {
  readonly before: Items;
  readonly beforeLength: number;
  /** The walk's copy of the returned list, or the list itself when its tap noted how it made it (kept as it is): see Walked.taps. */
  returned: unknown[];
  /** Where the check put parsed items into `returned`, in position order, and the objects the tap had there. */
  originals?: { readonly positions: ReadonlyArray<number>; readonly objects: ReadonlyArray<unknown> };
  readonly order: InOrder;
  /** For each run of `order.leftOut`, the position of the returned list at which the walk found it. */
  readonly leftOutAt: ReadonlyArray<number>;
  /** What the tap's check made of the returned list, once it passed (see InOrderMemo.keep). */
  accepted?: Accepted;
  /** The ids of `before`'s first items, made when a new item had to be told from them. */
  readonly ids: BeforeIds | undefined;
}

/** The ids of a list's first `length` items: kept while the list only grows, so a new item is told apart without reading every id. */
interface BeforeIds {
  readonly set: Set<string>;
  length: number;
}

/** The checked list handed on (new and replacing items parsed) and the ids of the replacing items. */
export interface Accepted {
  readonly items: Items;
  readonly replacedIds: ReadonlySet<string>;
}

export interface Walked {
  readonly order: InOrder;
  /**
   * A copy of the returned list, the walk's own: the check may put parsed items into it and hand it
   * on as its accepted list, telling the memo what it replaced (InOrderMemo.patched). When `taps`,
   * the returned list itself: the check copies it before putting anything into it (InOrderMemo.copied).
   */
  readonly copy: unknown[];
  /** Whether `copy` is the tap's own list (one it noted as made from another: see notePrefix), not a copy. */
  readonly taps: boolean;
  /** Positions of the returned list under this one are as in the last walk: the same objects, the same verdicts. */
  readonly start: number;
  /** The last walk's accepted list, when `start` > 0 and its check passed. */
  readonly prior: Accepted | undefined;
  /**
   * Where that list holds a parsed item in the place of what the tap returned (in order): under
   * `start`, the only positions where it differs from the returned list.
   */
  readonly priorPatched: ReadonlyArray<number>;
  /** How many first positions of the returned list hold the items of `before` at the same places. */
  readonly sharedWithBefore: number;
}

/**
 * Most taps return some of the items they were given, in the same order (a filter, a window), maybe
 * with a few new ones (a system prompt, a synthesized result): then every kept item is known valid
 * and one walk over both lists says which were kept. Undefined when the list is anything else.
 */
export function inOrder(before: Items, returned: ReadonlyArray<unknown>): InOrder | undefined {
  return walk(before, returned, undefined, undefined)?.order;
}

/** inOrder, resumed from the last walk of the same tap where both lists still start as they did then. */
export class InOrderMemo {
  #last: Walk | undefined;
  /** The check of what the tap recorded about the lists walked. */
  readonly recorded = new RecordedInOrder();

  of(before: Items, returned: ReadonlyArray<unknown>): Walked | undefined {
    const last = this.#last;
    this.#last = undefined;
    const sharedBefore = last === undefined ? 0 : Math.min(last.beforeLength, last.before === before ? before.length : sharedPrefixLength(before, last.before));
    const resumed = last === undefined ? undefined : resumePoint(before, returned, last, sharedBefore);
    const ids = last?.ids !== undefined && last.ids.length <= sharedBefore ? last.ids : undefined;
    const done = walk(before, returned, resumed === undefined ? undefined : { last: last!, ...resumed }, ids);
    this.#last = done;
    if (done === undefined) return undefined;
    const prior = resumed === undefined ? undefined : last!.accepted;
    const { inserted, replaced } = done.order;
    const sharedWithBefore = Math.min(done.leftOutAt[0] ?? returned.length, inserted[0] ?? returned.length, replaced[0]?.[0] ?? returned.length, before.length);
    return { order: done.order, copy: done.returned, taps: done.returned === returned, start: resumed?.start ?? 0, prior, priorPatched: prior === undefined ? NONE : (last!.originals?.positions ?? NONE), sharedWithBefore };
  }

  /** The check copied the tap's own list before putting anything into it: the copy is the walk's from now on. */
  copied(copy: unknown[]): void {
    if (this.#last !== undefined) this.#last.returned = copy;
  }

  /** The check put parsed items into the last walk's copy at `positions` (in order), where the tap had `objects`. */
  patched(positions: ReadonlyArray<number>, objects: ReadonlyArray<unknown>): void {
    if (this.#last !== undefined) this.#last.originals = { positions, objects };
  }

  /** Forgets the last walk: a check that failed half-way leaves nothing to resume from. */
  forget(): void {
    this.#last = undefined;
    this.recorded.forget();
  }

  /** What the check of the list last walked made of it: the next build reuses it for the positions they share. */
  keep(accepted: Accepted): void {
    if (this.#last !== undefined) this.#last.accepted = accepted;
  }
}

interface Resume {
  readonly last: Walk;
  readonly start: number;
  readonly from: number;
}

function walk(before: Items, returned: ReadonlyArray<unknown>, resume: Resume | undefined, knownIds: BeforeIds | undefined): Walk | undefined {
  let ids = knownIds;
  // Whether an object is not in `before` and shares no id with an item there (an item there has its own id).
  const isNewItem = (candidate: unknown): boolean => {
    if (typeof candidate !== "object" || candidate === null) return false;
    ids ??= { set: new Set(), length: 0 };
    for (; ids.length < before.length; ids.length++) ids.set.add(before[ids.length]!.id);
    return !ids.set.has((candidate as { id?: unknown }).id as string);
  };
  let leftOut: Array<readonly [number, number]> = [];
  let leftOutAt: number[] = [];
  let inserted: number[] = [];
  let replaced: Array<readonly [number, number]> = [];
  let start = 0;
  let from = 0;
  if (resume !== undefined) {
    // Everything the walk decided before `start` read only positions of `before` under `from`, which
    // are the same objects; an item it took as new was not in `before` then, and is not in its new tail.
    const { last } = resume;
    ({ start, from } = resume);
    const runs = last.leftOutAt.findIndex((position) => position >= start);
    const kept = runs === -1 ? last.leftOutAt.length : runs;
    leftOut = last.order.leftOut.slice(0, kept);
    leftOutAt = last.leftOutAt.slice(0, kept);
    inserted = last.order.inserted.filter((position) => position < start);
    replaced = last.order.replaced.slice(0, countBelow(last.order.replaced, start));
  }
  for (let position = start; position < returned.length; position++) {
    const candidate = returned[position];
    if (from < before.length && before[from] === candidate) {
      from++;
      continue;
    }
    // In the place of the next item, under its id: a replacement (a strategy's placeholder).
    if (from < before.length && typeof candidate === "object" && candidate !== null && (candidate as { id?: unknown }).id === before[from]!.id) {
      replaced.push([position, from]);
      from++;
      continue;
    }
    let ahead = from;
    while (ahead < before.length && before[ahead] !== candidate) ahead++;
    if (ahead < before.length) {
      leftOut.push([from, ahead]);
      leftOutAt.push(position);
      from = ahead + 1;
      continue;
    }
    // Not ahead: new, or moved back, or a new object under a kept id; only the first is taken here.
    if (inserted.length === MAX_INSERTED || !isNewItem(candidate)) return undefined;
    inserted.push(position);
  }
  if (from < before.length) {
    leftOut.push([from, before.length]);
    leftOutAt.push(returned.length);
  }
  // A list its tap noted (and so keeps as it is) is not copied unless the check puts a parsed item into it.
  const kept = isNotedList(returned) ? (returned as unknown[]) : returned.slice();
  return { before, beforeLength: before.length, returned: kept, order: { leftOut, inserted, replaced }, leftOutAt, ids };
}

/** How many replacements are at positions under `start` (they are in position order). */
export function countBelow(replaced: ReadonlyArray<readonly [number, number]>, start: number): number {
  let low = 0;
  let high = replaced.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (replaced[middle]![0] < start) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many first positions of `returned` hold the objects the last walk's returned list held (its copy, with the originals put back where the check parsed). */
function sharedWithLast(returned: ReadonlyArray<unknown>, last: Walk): number {
  const copy = last.returned;
  const originals = last.originals;
  if (originals === undefined || originals.positions.length === 0) return sharedPrefixLength(returned, copy);
  const limit = Math.min(returned.length, copy.length);
  let next = 0;
  for (let position = 0; position < limit; position++) {
    let was = copy[position];
    if (next < originals.positions.length && originals.positions[next] === position) was = originals.objects[next++];
    if (returned[position] !== was) return position;
  }
  return limit;
}

/** Where the last walk stood in `before` when it came to `position` of the returned list. */
function fromAt(last: Walk, position: number): number {
  // Each position of the returned list moves the walk one item on, but a new item (none) and a left-out run (its length too).
  let from = position;
  for (const inserted of last.order.inserted) if (inserted < position) from--;
  for (let run = 0; run < last.leftOutAt.length && last.leftOutAt[run]! < position; run++) from += last.order.leftOut[run]![1] - last.order.leftOut[run]![0];
  return from;
}

/** Whether `candidate` is an object that is not in `before` from `start` on, nor shares an id with one there. */
function isNew(candidate: unknown, before: Items, start: number): boolean {
  if (typeof candidate !== "object" || candidate === null) return false;
  const id = (candidate as { id?: unknown }).id;
  for (let index = start; index < before.length; index++) {
    const item = before[index]!;
    if (item === candidate || item.id === id) return false;
  }
  return true;
}

/**
 * The furthest position of `returned` up to which the last walk holds: both lists the same objects up
 * to there, and the items it took as new still not in `before`. Undefined when there is none worth it.
 */
function resumePoint(before: Items, returned: ReadonlyArray<unknown>, last: Walk, sharedBefore: number): { start: number; from: number } | undefined {
  // A walk that stood past the shared part of `before` read items that may have changed: the last
  // position where it stood within it (the walk only moves on).
  let low = 0;
  let high = sharedWithLast(returned, last);
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (fromAt(last, middle) <= sharedBefore) low = middle;
    else high = middle - 1;
  }
  const start = low;
  if (start === 0) return undefined;
  for (const position of last.order.inserted) {
    if (position >= start) break;
    if (!isNew(returned[position], before, sharedBefore)) return undefined;
  }
  return { start, from: fromAt(last, start) };
}
