// Runs one of the bench's child scripts (TypeScript through tsx with the source condition, as `pnpm
// bench` itself runs) with one JSON argument, and reads the JSON line it prints last on stdout.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The child's last stdout line, parsed, and its spawn-to-exit time; rejects with the end of its stderr when it fails. */
export function runBenchChild<Report>(script: string, task: unknown, nodeFlags: ReadonlyArray<string> = []): Promise<{ report: Report; wallMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", "--conditions=@ctxpipe/source", join(BENCH_DIRECTORY, "src", script), JSON.stringify(task)], {
    cwd: BENCH_DIRECTORY,
    stdio: ["ignore", "pipe", "pipe"],
  });
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
        reject(new Error(`the child process ${script} exited with ${code}: ${stderr.trim().split("\n").slice(-3).join(" ") || "no output"}`));
        return;
      }
      resolve({ report: JSON.parse(line) as Report, wallMs });
    });
  });
}
