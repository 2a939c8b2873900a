// The decisions recorded during one build, in the order they were made. A run is one decision about
// one or more items: a stage that drops half the history records one run, not thousands of events,
// and the per-item histories the report needs are indexed only when something reads them.
import type { ReportEvent } from "./build-report.js";

export interface EventRun {
  readonly ids: ReadonlyArray<string>;
  readonly event: ReportEvent;
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

  /**
   * The events of the given ids only, in the order recorded: one pass over the runs without indexing
   * every id (a build that offloaded a few texts asks about those, not about the whole history).
   */
  eventsOf(wanted: ReadonlySet<string>): ReadonlyMap<string, ReadonlyArray<ReportEvent>> {
    const found = new Map<string, ReportEvent[]>();
    if (wanted.size === 0) return found;
    for (const { ids, event } of this.#runs) {
      for (const id of ids) {
        if (!wanted.has(id)) continue;
        const list = found.get(id);
        if (list === undefined) found.set(id, [event]);
        else list.push(event);
      }
    }
    return found;
  }

  /** Forgets the events `drop` picks (a render whose decisions a second render replaces). */
  remove(drop: (event: ReportEvent) => boolean): void {
    this.#runs = this.#runs.filter((run) => !drop(run.event));
    this.#byId = new Map();
    this.#indexed = 0;
  }
}
