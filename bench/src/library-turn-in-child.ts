// Runs a library row in a child process with the given Node flags (library-turn-child.ts).
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LibraryChildReport, LibraryChildTask } from "./library-turn-child.js";

const BENCH_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), "..");
const CHILD = join(BENCH_DIRECTORY, "src", "library-turn-child.ts");

/** The child's report; rejects with the end of its stderr when it fails. */
export function libraryTurnInChild(task: LibraryChildTask, nodeFlags: ReadonlyArray<string>): Promise<LibraryChildReport> {
  // TypeScript sources through tsx with the source condition, as `pnpm bench` itself runs.
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", "--conditions=@ctxpipe/source", CHILD, JSON.stringify(task)], { cwd: BENCH_DIRECTORY, stdio: ["ignore", "pipe", "pipe"] });
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
      const line = stdout.trim().split("\n").at(-1);
      if (code !== 0 || line === undefined || line === "") {
        reject(new Error(`the child process exited with ${code}: ${stderr.trim().split("\n").slice(-3).join(" ") || "no output"}`));
        return;
      }
      resolve(JSON.parse(line) as LibraryChildReport);
    });
  });
}
