// Starts append-child.ts in a new Node process (TypeScript through tsx, workspace packages from source)
// and collects the complete lines it prints.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./append-child.ts", import.meta.url));
const PACKAGE_DIRECTORY = fileURLToPath(new URL("../../..", import.meta.url));

export interface AppendChild {
  readonly process: ChildProcess;
  /** Complete lines printed so far (a line cut off by a kill is not included). */
  readonly lines: string[];
  /** Resolves when a printed line satisfies `predicate`. */
  waitForLine(predicate: (line: string) => boolean): Promise<void>;
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
}

export function spawnAppendChild(args: ReadonlyArray<string>): AppendChild {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@ctxpipe/source", CHILD, ...args], {
    cwd: PACKAGE_DIRECTORY,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: Array<{ predicate: (line: string) => boolean; resolve: () => void }> = [];
  let partial = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      for (const waiter of waiters.splice(0)) {
        if (waiter.predicate(line)) waiter.resolve();
        else waiters.push(waiter);
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => {
    child.on("close", (code, signal) => resolve(signal ?? code));
  });
  return {
    process: child,
    lines,
    exited,
    waitForLine: (predicate) =>
      new Promise<void>((resolve, reject) => {
        if (lines.some(predicate)) return resolve();
        waiters.push({ predicate, resolve });
        void exited.then((status) => reject(new Error(`child exited (${status}) before the expected line:\n${stderr}`)));
      }),
  };
}
