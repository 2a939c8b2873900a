// `ctxpipe build` on a stored .jsonl file, against the exact tokenizer counting the same text: the
// issue promises a 10,000-message file builds "in about the time the tokenizer needs for its text".
// The command runs whole (read, parse, import, build, serialise the JSON) in this process through
// runCli, again with --report, and as the executable a user runs (a child process: Node start and
// module loading included). Each run writes a conversation of its own seed, untimed, first.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { runCli } from "@ctxpipe/cli";
import type { Tokenizer } from "@ctxpipe/core";
import { generateConversation, type StoredMessage } from "./generate-conversation.js";
import { type Timing, timingOf } from "./measure.js";
import { toLangChainMessages } from "./to-langchain-messages.js";
import { TrimMessagesBaseline } from "./trim-messages-baseline.js";

/** The built executable, relative to this file (bench/src → packages/cli/dist). */
export const CLI_EXECUTABLE = new URL("../../packages/cli/dist/bin.js", import.meta.url).pathname;

export interface CliBenchmarkPlan {
  readonly messages: number;
  readonly runs: number;
  /** The exact tokenizer the CLI counts with: createTokenizer("gpt-4o"). */
  readonly tokenizer: Tokenizer;
  /** The built bin.js; when the file is missing the child-process figure is "not built". */
  readonly executable?: string;
  readonly firstSeed?: number;
}

export interface CliBenchmarkFigures {
  readonly messages: number;
  /** Median size of the .jsonl files. */
  readonly megabytes: number;
  /** Median --max-tokens: half the history's tokens. */
  readonly budgetTokens: number;
  /** Median size of what `ctxpipe build` printed. */
  readonly outputMegabytes: number;
  /** Every message's text counted by the tokenizer alone. */
  readonly tokenizer: Timing;
  /** `ctxpipe build FILE --max-tokens N` in-process. */
  readonly build: Timing;
  /** The same with --report. */
  readonly report: Timing;
  /** The built executable as a child process, or why there is no figure. */
  readonly executable: Timing | "not built";
}

/** The texts a provider is sent of each message, in order: its content, then each tool call's arguments. */
export function messageTexts(messages: ReadonlyArray<StoredMessage>): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    if (message.content !== null) texts.push(message.content);
    for (const call of message.tool_calls ?? []) texts.push(call.function.arguments);
  }
  return texts;
}

/** One stored message per line, the way `ctxpipe build FILE.jsonl` reads them. */
export function toJsonl(messages: ReadonlyArray<StoredMessage>): string {
  return `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`;
}

/** Which subject goes first in a run: it rotates, so no subject always finds the others' tokenizer work. */
export function rotation<T>(subjects: ReadonlyArray<T>, run: number): T[] {
  const shift = run % subjects.length;
  return [...subjects.slice(shift), ...subjects.slice(0, shift)];
}

export async function cliBenchmark(plan: CliBenchmarkPlan): Promise<CliBenchmarkFigures> {
  const { messages, runs, tokenizer, executable = CLI_EXECUTABLE, firstSeed = 3000 } = plan;
  const built = existsSync(executable);
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-bench-cli-"));
  try {
    // An untimed round on a seed of its own: compiles every code path and loads the o200k data in this
    // process before anything is timed (the child process pays for its own, which is its point).
    const warmUp = await writeConversation(directory, messages, firstSeed - 1);
    countAll(tokenizer, warmUp.texts);
    await buildInProcess(warmUp.file, warmUp.budget, []);
    await buildInProcess(warmUp.file, warmUp.budget, ["--report"]);

    const times = { tokenizer: [] as number[], build: [] as number[], report: [] as number[], executable: [] as number[] };
    const sizes: number[] = [];
    const budgets: number[] = [];
    const outputs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const conversation = await writeConversation(directory, messages, firstSeed + run);
      sizes.push(conversation.megabytes);
      budgets.push(conversation.budget);
      // The tokenizer's only cache across calls holds the counts of merged word pieces (bpe/
      // piece-count-cache.ts); a new seed brings pieces no run has seen, and whoever counts them first
      // pays for merging them. Rotating the order shares that cost out.
      const subjects = {
        tokenizer: async () => countAll(tokenizer, conversation.texts),
        build: async () => outputs.push(await buildInProcess(conversation.file, conversation.budget, [])),
        report: async () => buildInProcess(conversation.file, conversation.budget, ["--report"]),
      };
      for (const name of rotation(["tokenizer", "build", "report"] as const, run)) {
        times[name].push(await timed(subjects[name]));
      }
      if (built) times.executable.push(await timed(() => runExecutable(executable, conversation.file, conversation.budget)));
      await rm(conversation.file);
    }
    return {
      messages,
      megabytes: timingOf(sizes).median,
      budgetTokens: timingOf(budgets).median,
      outputMegabytes: timingOf(outputs).median / 1e6,
      tokenizer: timingOf(times.tokenizer),
      build: timingOf(times.build),
      report: timingOf(times.report),
      executable: built ? timingOf(times.executable) : "not built",
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

interface WrittenConversation {
  readonly file: string;
  readonly megabytes: number;
  readonly texts: string[];
  readonly budget: number;
}

async function writeConversation(directory: string, messages: number, seed: number): Promise<WrittenConversation> {
  const stored = generateConversation(messages, seed);
  const file = join(directory, `conversation-${seed}.jsonl`);
  await writeFile(file, toJsonl(stored));
  // Half the history's tokens, counted with the baseline's counter, which shares no cache with ctxpipe.
  const budget = Math.floor(new TrimMessagesBaseline().countTokens(toLangChainMessages(stored)) / 2);
  return { file, megabytes: (await stat(file)).size / 1e6, texts: messageTexts(stored), budget };
}

function countAll(tokenizer: Tokenizer, texts: ReadonlyArray<string>): number {
  let total = 0;
  for (const text of texts) total += tokenizer.count(text);
  return total;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Runs `ctxpipe build` through runCli with standard output discarded; returns how many bytes it printed. */
async function buildInProcess(file: string, budget: number, extra: ReadonlyArray<string>): Promise<number> {
  let printed = 0;
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      printed += chunk.length;
      done();
    },
  });
  const errors: string[] = [];
  const stderr = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      errors.push(String(chunk));
      done();
    },
  });
  const status = await runCli(["build", file, "--max-tokens", String(budget), ...extra], { stdin: Readable.from([]), stdout, stderr, env: {} });
  if (status !== 0) throw new Error(`ctxpipe build ${extra.join(" ")} exited ${status}: ${errors.join("").trim()}`);
  return printed;
}

/** `node bin.js build FILE --max-tokens N`, standard output to /dev/null; rejects unless it exits 0. */
function runExecutable(executable: string, file: string, budget: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [executable, "build", file, "--max-tokens", String(budget)], { stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      errors += chunk;
    });
    child.on("error", reject);
    child.on("close", (status) => {
      if (status === 0) resolve();
      else reject(new Error(`node ${executable} build exited ${status}: ${errors.trim()}`));
    });
  });
}
