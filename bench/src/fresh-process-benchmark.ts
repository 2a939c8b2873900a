// Row f of the issue-24 table: another host behind a load balancer builds the next turn of a
// conversation it has never seen. Each run is a child process (fresh-process-turn.ts) that opens the
// store, loads, imports and builds; "with persisted counts" the store's token counts are read, so no
// text counted before is tokenized again; "without", the store's count methods are hidden (what a
// fresh process paid before this issue).
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FreshProcessReport, FreshProcessTask } from "./fresh-process-turn.js";

const BENCH_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), "..");
const CHILD = join(BENCH_DIRECTORY, "src", "fresh-process-turn.ts");

export interface FreshProcessRun extends FreshProcessReport {
  /** Spawn to exit, as the parent saw it, in milliseconds. */
  readonly wallMs: number;
}

/** Runs one child process for `task`; rejects with its stderr when it fails. */
export function freshProcessTurn(task: FreshProcessTask): Promise<FreshProcessRun> {
  const started = performance.now();
  // TypeScript sources through tsx with the source condition, as `pnpm bench` itself runs.
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@ctxpipe/source", CHILD, JSON.stringify(task)], { cwd: BENCH_DIRECTORY, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - started;
      const line = stdout.trim().split("\n").at(-1);
      if (code !== 0 || line === undefined || line === "") {
        reject(new Error(`the fresh process exited with ${code}: ${stderr.trim().split("\n").slice(-3).join(" ") || "no output"}`));
        return;
      }
      resolve({ ...(JSON.parse(line) as FreshProcessReport), wallMs });
    });
  });
}
