// `pnpm --filter @ctxpipe-example/run-mode start [directory]`: a workflow run over three processes.
// The first is killed (kill -9) in the middle of a tool call; the second resumes from the log, gets a
// failed model call (retried), and completes the workflow; the third asks about it afterwards.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PhaseOptions } from "./run-session.js";

const directory = process.argv[2] ?? mkdtempSync(join(tmpdir(), "ctxpipe-run-mode-"));
const phaseCli = fileURLToPath(new URL("./phase-cli.ts", import.meta.url));
const phases: PhaseOptions[] = [{ userInput: "Review last night's API outage.", crash: true }, { failOnce: true }, { userInput: "What was the root cause?" }];

console.log(`Run log: ${directory}`);
for (const phase of phases) {
  console.log("");
  const child = spawnSync(process.execPath, [...process.execArgv, phaseCli, directory, JSON.stringify(phase)], { stdio: "inherit" });
  if (child.signal === "SIGKILL") console.log("  (process killed with SIGKILL in the middle of a tool call)");
  else if (child.status !== 0) process.exit(child.status ?? 1);
}
