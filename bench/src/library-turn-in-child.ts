// Runs a library row in a child process with the given Node flags (library-turn-child.ts).
import type { LibraryChildReport, LibraryChildTask } from "./library-turn-child.js";
import { runBenchChild } from "./run-bench-child.js";

export async function libraryTurnInChild(task: LibraryChildTask, nodeFlags: ReadonlyArray<string>): Promise<LibraryChildReport> {
  return (await runBenchChild<LibraryChildReport>("library-turn-child.ts", task, nodeFlags)).report;
}
