// The fast check of what a tap recorded about a list it returned in order (see acceptInOrder), kept
// per tap and lane. A compression chain records the same decisions build after build: thousands of
// clears, made once as batches and recorded again as the same runs, then the window's drop. Where this
// build's runs start as last build's did (the same id arrays) and the lists they were read against
// still hold the same items, the walk resumes from where it stood after them instead of reading every
// id again.
import type { EventRun } from "./event-log.js";
import type { InOrder } from "./in-order.js";
import { sharedPrefixLength } from "./list-lineage.js";
import type { Items } from "./pipeline-hooks.js";

/** The decisions that take an item out of the list. */
export const REMOVALS: ReadonlySet<string> = new Set(["dropped", "summarized", "merged"]);

/** Where the walk stood after the first `at` runs. Taken only while every non-removal id so far was a replacement in list order or one to check as left out. */
interface Checkpoint {
  readonly at: number;
  readonly matched: number;
  /** The left-out run and position the next removal must name. */
  readonly run: number;
  readonly position: number;
  /** How many ids of `elsewhere` the first `at` runs gave. */
  readonly elsewhere: number;
  /** Positions of `before` under this were read to get here. */
  readonly readUpTo: number;
}

interface Last {
  readonly runs: ReadonlyArray<EventRun>;
  readonly before: Items;
  readonly leftOut: InOrder["leftOut"];
  readonly replaced: InOrder["replaced"];
  /** Every id checked as left out, all found so (the next walk extends the array when it resumes past them all). */
  readonly elsewhere: string[];
  /** Where each of them is in `before` (in list order), when they came in list order. */
  readonly elsewhereAt: number[] | undefined;
  readonly checkpoints: ReadonlyArray<Checkpoint>;
}

/** A checkpoint every this many runs, and wherever removals start or stop. */
const CHECKPOINT_EVERY = 32;

export class RecordedInOrder {
  #last: Last | undefined;

  /** Forgets the last walk. */
  forget(): void {
    this.#last = undefined;
  }

  /**
   * Every removal the tap recorded is of an item it left out, in list order, and every other decision
   * is about an item it added or replaced, or one it left out. Hands the left-out items no decision
   * named to `unexplained`. Returns how many replacements, from the first, its decisions named in list
   * order; false when the tap recorded anything else (the full check decides). `runs` is kept as it
   * is for the next build: a copy the caller no longer changes.
   */
  accept(runs: ReadonlyArray<EventRun>, before: Items, order: InOrder, addedIds: ReadonlySet<string>, replacedIds: ReadonlySet<string>, unexplained: (ids: string[]) => void): number | false {
    const last = this.#last;
    this.#last = undefined;
    const { leftOut, replaced } = order;
    const start = last === undefined ? undefined : resumeFrom(last, runs, before, leftOut, replaced);

    let at = start?.at ?? 0;
    let matched = start?.matched ?? 0;
    let run = start?.run ?? 0;
    let position = start === undefined ? (leftOut.length === 0 ? before.length : leftOut[0]![0]) : start.position;
    // Ids of other decisions about items neither added nor replaced: each must be one left out. The
    // first `verified` were found left out by last build's check, and still are.
    const elsewhere: string[] = start === undefined ? [] : prefix(last!.elsewhere, start.elsewhere);
    const verified = elsewhere.length;
    const verifiedAt = verified === 0 ? [] : prefix(last!.elsewhereAt!, verified);
    const next = () => {
      position++;
      if (position >= leftOut[run]![1]) {
        run++;
        position = run < leftOut.length ? leftOut[run]![0] : before.length;
      }
    };
    // Last walk's checkpoints before where this one resumed hold for this build too (the walk only
    // moves on), but for those taken once every left-out run was used up: the runs may be more now.
    const resumedAt = at;
    const checkpoints: Checkpoint[] = start === undefined ? [] : [...last!.checkpoints.filter((checkpoint) => checkpoint.at < resumedAt && checkpoint.run < last!.leftOut.length), start];
    // Whether an id was passed over for being added or replaced out of order: the walk is then not
    // resumed past it (which ids those are can change with no run changing).
    let passedOver = false;
    for (; at < runs.length; at++) {
      const recorded = runs[at]!;
      const removal = REMOVALS.has(recorded.event.decision);
      if (!passedOver && at > resumedAt && (at % CHECKPOINT_EVERY === 0 || removal !== REMOVALS.has(runs[at - 1]!.event.decision))) {
        checkpoints.push(checkpointAt(at, matched, run, position, elsewhere.length, leftOut, replaced));
      }
      const ids = recorded.ids;
      for (let index = 0; index < ids.length; index++) {
        const id = ids[index]!;
        if (!removal) {
          if (matched < replaced.length && before[replaced[matched]![1]]!.id === id) matched++;
          else if (!addedIds.has(id) && !replacedIds.has(id)) elsewhere.push(id);
          else passedOver = true;
          continue;
        }
        if (position === before.length || before[position]!.id !== id) return false;
        next();
      }
    }
    if (!passedOver && runs.length > resumedAt) checkpoints.push(checkpointAt(runs.length, matched, run, position, elsewhere.length, leftOut, replaced));
    const left: string[] = [];
    for (; position < before.length; next()) left.push(before[position]!.id);
    // The full check takes a left-out item with any decision as explained, and records nothing for it.
    if (elsewhere.length > 0 && left.length > 0) return false;
    let elsewhereAt: number[] | undefined = verifiedAt;
    if (elsewhere.length > verified) {
      const found = leftOutPositions(elsewhere, verified, verified === 0 ? 0 : verifiedAt[verified - 1]!, before, leftOut);
      if (found === false) return false;
      if (found === true) elsewhereAt = undefined;
      else for (const position of found) verifiedAt.push(position);
    }
    if (left.length > 0) unexplained(left);
    this.#last = { runs, before, leftOut, replaced, elsewhere, elsewhereAt, checkpoints };
    return matched;
  }
}

/** The first `length` entries: last walk's array itself when that is all of it (the walk it belonged to is over). */
function prefix<Value>(values: Value[], length: number): Value[] {
  return values.length === length ? values : values.slice(0, length);
}

function checkpointAt(at: number, matched: number, run: number, position: number, elsewhere: number, leftOut: InOrder["leftOut"], replaced: InOrder["replaced"]): Checkpoint {
  // Removals read the left-out positions under `position` (all of them once every run is used up),
  // replacements the item of each one matched. (An id checked as left out is no replaced item's.)
  const byRemovals = run < leftOut.length ? position : leftOut.length === 0 ? 0 : leftOut[leftOut.length - 1]![1];
  const byReplacements = matched === 0 ? 0 : replaced[matched - 1]![1] + 1;
  return { at, matched, run, position, elsewhere, readUpTo: Math.max(byRemovals, byReplacements) };
}

/** The furthest checkpoint of the last walk that holds for these runs and lists, with the position it stands at now; undefined when none does. */
function resumeFrom(last: Last, runs: ReadonlyArray<EventRun>, before: Items, leftOut: InOrder["leftOut"], replaced: InOrder["replaced"]): Checkpoint | undefined {
  const checkpoints = last.checkpoints;
  if (checkpoints.length === 0) return undefined;
  // Runs are the same when they name the same id array (never changed once recorded) the same way.
  const limit = Math.min(runs.length, last.runs.length, checkpoints.at(-1)!.at);
  let shared = 0;
  while (shared < limit) {
    const now = runs[shared]!;
    const then = last.runs[shared]!;
    if (now !== then && (now.ids !== then.ids || REMOVALS.has(now.event.decision) !== REMOVALS.has(then.event.decision))) break;
    shared++;
  }
  let sharedBefore: number | undefined;
  for (let index = checkpoints.length - 1; index >= 0; index--) {
    const checkpoint = checkpoints[index]!;
    if (checkpoint.at > shared || checkpoint.at === 0) continue;
    sharedBefore ??= sharedPrefixLength(before, last.before);
    if (checkpoint.readUpTo > sharedBefore) continue;
    const position = positionNow(checkpoint, last.leftOut, leftOut, before);
    if (position === undefined || !sameReplacements(checkpoint.matched, last.replaced, replaced)) continue;
    // The ids found left out last time still are when the items up to the last of them are the same
    // and were left out then only where they are now. Then none of them is a replaced or added item's
    // (ids are unique), whichever items are replaced now.
    if (checkpoint.elsewhere > 0) {
      if (last.elsewhereAt === undefined) continue;
      const upTo = last.elsewhereAt[checkpoint.elsewhere - 1]! + 1;
      if (upTo > sharedBefore || !coveredBelow(leftOut, last.leftOut, upTo)) continue;
    }
    return position === checkpoint.position ? checkpoint : { ...checkpoint, position };
  }
  return undefined;
}

/** Where the walk stands now at the checkpoint, when the left-out runs it went through are the same (and the one it is in starts there still). */
function positionNow(checkpoint: Checkpoint, then: InOrder["leftOut"], now: InOrder["leftOut"], before: Items): number | undefined {
  const { run, position } = checkpoint;
  if (run > now.length) return undefined;
  for (let index = 0; index < run; index++) {
    if (now[index]![0] !== then[index]![0] || now[index]![1] !== then[index]![1]) return undefined;
  }
  if (run === then.length) return run < now.length ? now[run]![0] : before.length;
  if (run === now.length || now[run]![0] !== then[run]![0] || position >= now[run]![1]) return undefined;
  return position;
}

/** The replacements matched before the checkpoint are of the same items. */
function sameReplacements(matched: number, then: InOrder["replaced"], now: InOrder["replaced"]): boolean {
  if (now.length < matched) return false;
  for (let index = 0; index < matched; index++) if (now[index]![1] !== then[index]![1]) return false;
  return true;
}

/** Whether every position under `limit` in one of `then`'s runs is in one of `now`'s. */
function coveredBelow(now: InOrder["leftOut"], then: InOrder["leftOut"], limit: number): boolean {
  let index = 0;
  for (const [from, until] of then) {
    if (from >= limit) break;
    const to = Math.min(until, limit);
    while (index < now.length && now[index]![1] <= from) index++;
    if (index === now.length || now[index]![0] > from || now[index]![1] < to) return false;
  }
  return true;
}

/**
 * Where ids[from..] are in `before`, each in one of the left-out runs: found in one walk on from
 * position `after` when they come in list order (a chain's oldest-first clears). True when they are
 * all left out but not in that order (told by a set), false when one is not left out.
 */
function leftOutPositions(ids: ReadonlyArray<string>, from: number, after: number, before: Items, leftOut: InOrder["leftOut"]): number[] | boolean {
  const positions: number[] = [];
  let run = 0;
  while (run < leftOut.length && leftOut[run]![1] <= after) run++;
  let position = run < leftOut.length ? Math.max(leftOut[run]![0], after) : 0;
  for (let index = from; index < ids.length; index++) {
    const id = ids[index]!;
    while (run < leftOut.length && before[position]!.id !== id) {
      position++;
      if (position >= leftOut[run]![1]) {
        run++;
        if (run < leftOut.length) position = leftOut[run]![0];
      }
    }
    if (run === leftOut.length) {
      const left = new Set<string>();
      for (const [start, end] of leftOut) for (let at = start; at < end; at++) left.add(before[at]!.id);
      for (let rest = from; rest < ids.length; rest++) if (!left.has(ids[rest]!)) return false;
      return true;
    }
    positions.push(position);
  }
  return positions;
}
