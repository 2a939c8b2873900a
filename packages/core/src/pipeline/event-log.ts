// The decisions recorded during one build, in the order they were made. A run is one decision about
// one or more items: a stage that drops half the history records one run, not thousands of events,
// and the per-item histories the report needs are indexed only when something reads them.
import type { ReportEvent } from "./build-report.js";

export interface EventRun {
  readonly ids: ReadonlyArray<string>;
  readonly event: ReportEvent;
}

/** The runs a log held at one moment: the log only appends to its array or replaces it, so the first `length` stay as they were. */
export interface LogSnapshot {
  readonly runs: ReadonlyArray<EventRun>;
  readonly length: number;
}

export class EventLog {
  #runs: EventRun[] = [];
  /** Each id's events, indexed up to run #indexed. */
  #byId = new Map<string, ReportEvent[]>();
  #indexed = 0;

  get length(): number {
    return this.#runs.length;
  }

  add(ids: ReadonlyArray<string>, event: ReportEvent): void {
    this.#runs.push({ ids, event });
  }

  /** Runs made once and recorded again as they are (a decision batch). */
  addAll(runs: ReadonlyArray<EventRun>): void {
    for (const run of runs) this.#runs.push(run);
  }

  /** The runs recorded from position `start` on. */
  runsFrom(start: number): ReadonlyArray<EventRun> {
    return this.#runs.slice(start);
  }

  /** Every id's events in the order recorded. */
  byId(): ReadonlyMap<string, ReadonlyArray<ReportEvent>> {
    const runs = this.#runs;
    for (; this.#indexed < runs.length; this.#indexed++) {
      const { ids, event } = runs[this.#indexed]!;
      for (const id of ids) {
        const list = this.#byId.get(id);
        if (list === undefined) this.#byId.set(id, [event]);
        else list.push(event);
      }
    }
    return this.#byId;
  }

  /** The runs as they stand, without a copy. */
  snapshot(): LogSnapshot {
    return { runs: this.#runs, length: this.#runs.length };
  }

  /**
   * The events of the given ids only, in the order recorded: one pass over the runs without indexing
   * every id (a build that offloaded a few texts asks about those, not about the whole history).
   */
  eventsOf(wanted: ReadonlySet<string>): ReadonlyMap<string, ReadonlyArray<ReportEvent>> {
    return eventsIn(this.snapshot(), wanted);
  }

  /** Forgets the events `drop` picks (a render whose decisions a second render replaces). */
  remove(drop: (event: ReportEvent) => boolean): void {
    this.#runs = this.#runs.filter((run) => !drop(run.event));
    this.#byId = new Map();
    this.#indexed = 0;
  }
}

/** A run with more ids than this is looked up through a set of its ids, kept per id array. */
const LARGE_RUN = 64;
/** How often an id array is read through before a set of its ids is made (a large set costs more than many reads). */
const READS_BEFORE_SET = 3;
const idSets = new WeakMap<ReadonlyArray<string>, ReadonlySet<string> | number | null>();

/**
 * The ids of a frozen array that keeps coming back (a window's drop while its cut stays) as a set;
 * undefined for an array that may still change, holds an id twice (its event would count twice) or
 * has not been read often enough yet.
 */
function idSetOf(ids: ReadonlyArray<string>): ReadonlySet<string> | undefined {
  if (!Object.isFrozen(ids)) return undefined;
  const known = idSets.get(ids) ?? 0;
  if (typeof known !== "number") return known ?? undefined;
  if (known < READS_BEFORE_SET) {
    idSets.set(ids, known + 1);
    return undefined;
  }
  const made = new Set(ids);
  const set = made.size === ids.length ? made : null;
  idSets.set(ids, set);
  return set ?? undefined;
}

/**
 * The events of the given ids in a snapshot, in the order recorded. A run of many ids (a window's
 * drop, the same array from build to build while the cut stays) is asked about the few ids wanted
 * through a set of its ids made once per array, not read id by id.
 */
export function eventsIn(snapshot: LogSnapshot, wanted: ReadonlySet<string>): Map<string, ReportEvent[]> {
  const found = new Map<string, ReportEvent[]>();
  if (wanted.size === 0) return found;
  const add = (id: string, event: ReportEvent) => {
    const list = found.get(id);
    if (list === undefined) found.set(id, [event]);
    else list.push(event);
  };
  const { runs, length } = snapshot;
  for (let index = 0; index < length; index++) {
    const { ids, event } = runs[index]!;
    if (ids.length === 1) {
      if (wanted.has(ids[0]!)) add(ids[0]!, event);
      continue;
    }
    const set = ids.length > LARGE_RUN && wanted.size * 8 < ids.length ? idSetOf(ids) : undefined;
    if (set !== undefined) {
      for (const id of wanted) if (set.has(id)) add(id, event);
      continue;
    }
    for (const id of ids) if (wanted.has(id)) add(id, event);
  }
  return found;
}
