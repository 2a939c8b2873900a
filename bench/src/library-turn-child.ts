// A library row run in a child process, so that the child can be given Node flags the bench process
// does not have (a larger young generation: --max-semi-space-size). Run as a script with one JSON
// argument (LibraryChildTask); prints one JSON line (LibraryChildReport) on stdout.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTokenizer } from "@ctxpipe/tokenizers";
import { libraryTurnBenchmark } from "./library-turn-benchmark.js";
import type { TurnFigures } from "./turn-figures.js";
import { turnSubject } from "./turn-subject.js";

export interface LibraryChildTask {
  readonly messages: number;
  readonly turns: number;
  readonly compression: boolean;
  readonly budgetMs: number;
}

export interface LibraryChildReport {
  readonly turns: TurnFigures;
  readonly rss: number;
  readonly sameAsNewPipeline: boolean | undefined;
}

export async function runLibraryChild(task: LibraryChildTask): Promise<LibraryChildReport> {
  // The same subject as the bench process makes (it is generated from a fixed seed).
  const subject = turnSubject(task.messages, task.turns + 1_000);
  const figures = await libraryTurnBenchmark(subject, { compression: task.compression, variant: "kept", turns: task.turns, budgetMs: task.budgetMs, tokenizer: createTokenizer("gpt-4o") });
  return { turns: figures.turns, rss: figures.rss, sameAsNewPipeline: figures.sameAsNewPipeline };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = await runLibraryChild(JSON.parse(process.argv[2] ?? "{}") as LibraryChildTask);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
