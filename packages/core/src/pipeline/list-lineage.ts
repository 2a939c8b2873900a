// How many first items two lists share, answered without reading them where one was made from the
// other, or both from a third. Lists handed between stages are not changed once made, and most are
// made from lists made before: the prepared input from last build's grown by the new items, a tap's
// checked list from the list it was given and from the list the check handed on last build. That is
// noted when the list is made, so a stage comparing its list with the one it had last build (which
// another tap may have made: one that repaired a call still waiting for its result) reads only the
// items past what they share, not the whole history again.

interface Parent {
  /** The number of a list this one was made from, and how many first items it has of that one. */
  readonly from: number;
  readonly shared: number;
}

interface Note {
  /** This list's number. */
  readonly id: number;
  /** The lists it was made from. */
  readonly parents: Parent[];
  /**
   * The lists those were made from (one step only, so a list made every build does not carry every
   * earlier build's), with what this one shares with each through its parent.
   */
  readonly grandparents: Parent[];
}

/** A list keeps at most this many parents, and this many grandparents. */
const MAX_PARENTS = 4;
const MAX_GRANDPARENTS = 8;

// Set by the tests: every prefix noted is checked against the lists, when noted and when used.
const CHECKED = Symbol.for("ctxpipe.checkListLineage");

function checkSame(next: ReadonlyArray<unknown>, previous: ReadonlyArray<unknown>, shared: number, when: string): void {
  for (let index = 0; index < shared; index++) {
    if (next[index] !== previous[index]) throw new Error(`a list was ${when} as sharing ${shared} first items with another, but differs at ${index}`);
  }
}

// Numbers, not references: a list must not keep the lists it was made from alive.
const notes = new WeakMap<ReadonlyArray<unknown>, Note>();
let lastId = 0;

function noteOf(list: ReadonlyArray<unknown>): Note {
  let note = notes.get(list);
  if (note === undefined) {
    note = { id: ++lastId, parents: [], grandparents: [] };
    notes.set(list, note);
  }
  return note;
}

/**
 * Notes that `list` starts with the first `shared` items of `previous` (the same objects). Both must
 * be lists that nobody changes from now on.
 */
export function notePrefix(list: ReadonlyArray<unknown>, previous: ReadonlyArray<unknown>, shared: number): void {
  if (list === previous || shared <= 0) return;
  if ((globalThis as Record<symbol, unknown>)[CHECKED] === true) checkSame(list, previous, shared, "noted");
  const made = noteOf(previous);
  const note = noteOf(list);
  add(note.parents, MAX_PARENTS, made.id, shared);
  // And what it shares, through that one, with the lists that one was made from: a list another tap
  // made from this build's list still tells how much it shares with last build's.
  for (const parent of made.parents) add(note.grandparents, MAX_GRANDPARENTS, parent.from, Math.min(shared, parent.shared));
}

function add(parents: Parent[], max: number, from: number, shared: number): void {
  for (let index = 0; index < parents.length; index++) {
    if (parents[index]!.from !== from) continue;
    if (parents[index]!.shared < shared) parents[index] = { from, shared };
    return;
  }
  if (parents.length < max) parents.push({ from, shared });
}

/** Whether `list` was noted as made from another: its maker keeps it as it is. */
export function isNotedList(list: ReadonlyArray<unknown>): boolean {
  return (notes.get(list)?.parents.length ?? 0) > 0;
}

/** How many first items `next` and `previous` were noted to share (0 when nothing was noted of them). */
export function notedPrefix(next: ReadonlyArray<unknown>, previous: ReadonlyArray<unknown>): number {
  const a = notes.get(next);
  const b = notes.get(previous);
  if (a === undefined || b === undefined) return 0;
  // One made from the other (or from a list the other was made from), or both from one list: they
  // share what both have of it.
  const shared = Math.max(sharedWith(a, b), sharedWith(b, a));
  if ((globalThis as Record<symbol, unknown>)[CHECKED] === true) checkSame(next, previous, Math.min(shared, next.length, previous.length), "read");
  return shared;
}

/** What `a`, through its parents and grandparents, is noted to share with `b` or with one of b's parents. */
function sharedWith(a: Note, b: Note): number {
  let best = 0;
  for (const ancestors of [a.parents, a.grandparents]) {
    for (const ancestor of ancestors) {
      if (ancestor.from === b.id) best = Math.max(best, ancestor.shared);
      for (const parent of b.parents) if (parent.from === ancestor.from) best = Math.max(best, Math.min(ancestor.shared, parent.shared));
    }
  }
  return best;
}

/** How many first items the two lists share (the same objects): read past what was noted of them. */
export function sharedPrefixLength<T>(next: ReadonlyArray<T>, previous: ReadonlyArray<T>): number {
  const limit = Math.min(next.length, previous.length);
  let shared = Math.min(notedPrefix(next, previous), limit);
  while (shared < limit && next[shared] === previous[shared]) shared++;
  return shared;
}
