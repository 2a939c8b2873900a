// Row f of the issue-24 table: another host behind a load balancer builds the next turn of a
// conversation it has never seen. Each run is a child process (fresh-process-turn.ts) that opens the
// store, loads, imports and builds; "with persisted counts" the store's token counts are read, so no
// text counted before is tokenized again; "without", the store's count methods are hidden (what a
// fresh process paid before this issue).
import type { FreshProcessReport, FreshProcessTask } from "./fresh-process-turn.js";
import type { LogReadFloorReport, LogReadFloorTask } from "./log-read-floor.js";
import { runBenchChild } from "./run-bench-child.js";

export interface FreshProcessRun extends FreshProcessReport {
  /** Spawn to exit, as the parent saw it, in milliseconds. */
  readonly wallMs: number;
}

/** Runs one child process for `task`; rejects with its stderr when it fails. */
export async function freshProcessTurn(task: FreshProcessTask): Promise<FreshProcessRun> {
  const { report, wallMs } = await runBenchChild<FreshProcessReport>("fresh-process-turn.ts", task);
  return { ...report, wallMs };
}

/** Runs one child process that only reads and parses the log file (see log-read-floor.ts). */
export async function logReadFloor(task: LogReadFloorTask): Promise<LogReadFloorReport & { readonly wallMs: number }> {
  const { report, wallMs } = await runBenchChild<LogReadFloorReport>("log-read-floor.ts", task);
  return { ...report, wallMs };
}
