// How many first items two lists share, answered without reading them where one was made from the
// other. Lists handed between stages are not changed once made, and most are made from the list made
// at the same place last build (the prepared input grown by the new items, a tap's checked list that
// starts as last build's did): that is noted when the list is made, so a stage comparing its list with
// the one it had last build reads only the items past what they share, not the whole history again.

interface Note {
  /** This list's number. */
  readonly id: number;
  /** The number of the list it was made from (0: none), and how many first items it has of that one. */
  readonly from: number;
  readonly shared: number;
}

// Numbers, not references: a list must not keep the lists it was made from alive.
const notes = new WeakMap<ReadonlyArray<unknown>, Note>();
let lastId = 0;

function idOf(list: ReadonlyArray<unknown>): number {
  let note = notes.get(list);
  if (note === undefined) {
    note = { id: ++lastId, from: 0, shared: 0 };
    notes.set(list, note);
  }
  return note.id;
}

/**
 * Notes that `list` starts with the first `shared` items of `previous` (the same objects). Both must
 * be lists that nobody changes from now on.
 */
export function notePrefix(list: ReadonlyArray<unknown>, previous: ReadonlyArray<unknown>, shared: number): void {
  if (list === previous || shared <= 0) return;
  notes.set(list, { id: ++lastId, from: idOf(previous), shared });
}

/** How many first items the two lists share (the same objects): read past what was noted of them. */
export function sharedPrefixLength<T>(next: ReadonlyArray<T>, previous: ReadonlyArray<T>): number {
  const limit = Math.min(next.length, previous.length);
  let shared = Math.min(notedPrefix(next, previous), limit);
  while (shared < limit && next[shared] === previous[shared]) shared++;
  return shared;
}

/** How many first items `next` was noted to share with `previous` (0 when nothing was noted). */
export function notedPrefix(next: ReadonlyArray<unknown>, previous: ReadonlyArray<unknown>): number {
  const note = notes.get(next);
  return note !== undefined && note.from !== 0 && note.from === notes.get(previous)?.id ? note.shared : 0;
}
