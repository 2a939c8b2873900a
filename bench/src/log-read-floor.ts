// The floor under row f: what a new process pays to read a 10,000-message JSON-lines log and hold its
// records before any ctxpipe code runs (node:fs and JSON.parse only). Whatever a fresh process does
// with the log, a design that reads it whole cannot take less. Run as a script with one JSON argument
// (LogReadFloorTask); prints one JSON line (LogReadFloorReport) on stdout.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { peakRss } from "./peak-rss.js";

export interface LogReadFloorTask {
  /** The conversation's log file. */
  readonly file: string;
}

export interface LogReadFloorReport {
  /** Read the file as UTF-8 and parse each line, the records kept, in milliseconds. */
  readonly turnMs: number;
  readonly records: number;
  /** Peak resident set of this process, in bytes. */
  readonly peakRss: number;
}

async function run(task: LogReadFloorTask): Promise<LogReadFloorReport> {
  const started = performance.now();
  const text = await readFile(task.file, "utf8");
  // Kept, as a store keeps what it loaded: holding the records is part of the cost (new memory touched).
  const records: unknown[] = [];
  let start = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    if (end > start) records.push(JSON.parse(text.slice(start, end)));
    start = end + 1;
  }
  return { turnMs: performance.now() - started, records: records.length, peakRss: peakRss() };
}

// A script only when run directly (the parent imports the types).
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const report = await run(JSON.parse(process.argv[2]!) as LogReadFloorTask);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
