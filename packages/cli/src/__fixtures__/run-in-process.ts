// Runs the CLI in this process with its own streams, as a shell would see it: exit status, standard
// output and standard error.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { runCli } from "../cli/run-cli.js";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Piped into standard input; default: an empty stream. */
  readonly stdin?: string;
  readonly stdinIsTTY?: boolean;
  readonly stderrIsTTY?: boolean;
  readonly columns?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString("utf8");
}

export async function runInProcess(argv: ReadonlyArray<string>, options: RunOptions = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: options.stderrIsTTY ?? false });
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]), { isTTY: options.stdinIsTTY ?? false });
  const out = collect(stdout);
  const err = collect(stderr);
  const code = await runCli(argv, { stdin, stdout, stderr, env: options.env ?? {}, ...(options.columns === undefined ? {} : { columns: options.columns }) });
  return { code, stdout: out(), stderr: err() };
}

/** A temporary directory with the given files, removed by the returned cleanup. */
export async function tempFiles(files: Readonly<Record<string, string>>): Promise<{ dir: string; path: (name: string) => string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "ctxpipe-cli-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return { dir, path: (name) => join(dir, name), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const jsonl = (records: ReadonlyArray<unknown>) => `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
