// Which items' histories may differ between two logs (two builds' decisions). Most of a build's runs
// are last build's runs again: the same objects (a decision batch recorded by reference), or the same
// ids with an event that counts the same (a window's drop naming a new request size). Matching runs in
// order, what is left unmatched on either side names every item whose history may have changed.
import type { ReportEvent } from "./build-report.js";
import type { EventRun, LogSnapshot } from "./event-log.js";

/** How far ahead a run that matches nothing is looked for by identity (a few runs added or gone), and by content. */
const IDENTITY_LOOKAHEAD = 64;
const CONTENT_LOOKAHEAD = 8;

/**
 * The ids of every run of `before` or `after` left out of an in-order matching of their runs (each
 * pair with events `same` holds equal), and the ids a matched pair does not give alike. Any other id
 * has, in both logs, events of matched runs only, as often and in the same order: the same history,
 * event for event, as `same` sees them.
 */
export function changedIds(before: LogSnapshot, after: LogSnapshot, same: (left: ReportEvent, right: ReportEvent) => boolean): Set<string> {
  const changed = new Set<string>();
  const mark = (run: EventRun) => {
    for (const id of run.ids) changed.add(id);
  };
  const sameRun = (left: EventRun, right: EventRun): boolean => left === right || ((left.ids === right.ids || sameIds(left.ids, right.ids)) && same(left.event, right.event));
  const { runs: old, length: oldLength } = before;
  const { runs: now, length: nowLength } = after;
  let from = 0;
  let at = 0;
  while (at < nowLength && from < oldLength) {
    if (sameRun(now[at]!, old[from]!)) {
      at++;
      from++;
      continue;
    }
    const [added, gone, paired] = resync(old, oldLength, from, now, nowLength, at, sameRun, same);
    for (let index = at; index < at + added; index++) mark(now[index]!);
    for (let index = from; index < from + gone; index++) mark(old[index]!);
    at += added;
    from += gone;
    if (paired) {
      // The same decision about other ids (a window that drops a few more items): only those differ.
      markDifference(now[at]!.ids, old[from]!.ids, changed);
      at++;
      from++;
    }
  }
  for (; at < nowLength; at++) mark(now[at]!);
  for (; from < oldLength; from++) mark(old[from]!);
  return changed;
}

/**
 * How many runs to pass over on each side before the next match (runs added, runs gone), and whether
 * the two runs there are only the same decision (`paired`: their ids to compare), not the same run.
 * Failing both, one run replaced by another.
 */
function resync(
  old: ReadonlyArray<EventRun>,
  oldLength: number,
  from: number,
  now: ReadonlyArray<EventRun>,
  nowLength: number,
  at: number,
  sameRun: (left: EventRun, right: EventRun) => boolean,
  same: (left: ReportEvent, right: ReportEvent) => boolean,
): [added: number, gone: number, paired: boolean] {
  const next = now[at]!;
  const expected = old[from]!;
  for (let distance = 1; distance <= IDENTITY_LOOKAHEAD; distance++) {
    if (at + distance < nowLength && now[at + distance] === expected) return [distance, 0, false];
    if (from + distance < oldLength && old[from + distance] === next) return [0, distance, false];
  }
  for (let distance = 1; distance <= CONTENT_LOOKAHEAD; distance++) {
    if (at + distance < nowLength && sameRun(now[at + distance]!, expected)) return [distance, 0, false];
    if (from + distance < oldLength && sameRun(next, old[from + distance]!)) return [0, distance, false];
  }
  for (let distance = 0; distance <= CONTENT_LOOKAHEAD; distance++) {
    if (at + distance < nowLength && same(now[at + distance]!.event, expected.event)) return [distance, 0, true];
    if (from + distance < oldLength && same(next.event, old[from + distance]!.event)) return [0, distance, true];
  }
  return [1, 1, false];
}

/**
 * Marks the ids of two runs with the same event that may be given a different number of times: all but
 * their common first and last ids (an id only there is given as often by both).
 */
function markDifference(now: ReadonlyArray<string>, old: ReadonlyArray<string>, changed: Set<string>): void {
  const shorter = Math.min(now.length, old.length);
  let head = 0;
  while (head < shorter && now[head] === old[head]) head++;
  let tail = 0;
  while (tail < shorter - head && now[now.length - 1 - tail] === old[old.length - 1 - tail]) tail++;
  for (let index = head; index < now.length - tail; index++) changed.add(now[index]!);
  for (let index = head; index < old.length - tail; index++) changed.add(old[index]!);
}

function sameIds(left: ReadonlyArray<string>, right: ReadonlyArray<string>): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
