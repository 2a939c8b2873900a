// Section 1 of `pnpm bench`: tokenizer throughput on the mixed agent workload, counted message by
// message and as one concatenated string, and cold start measured in fresh processes.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateConversation } from "./generate-conversation.js";
import { formatMilliseconds, type Timing, timingOf } from "./measure.js";
import type { ColdStartSample } from "./tokenizer-cold-start.js";
import { loadTokenizerSubject, SUBJECT_LABELS, TOKENIZER_SUBJECTS, type TokenizerSubject } from "./tokenizer-subjects.js";

const MESSAGES = 1_000;
/** One conversation per run, each of its own seed, so no run counts text an earlier run cached. */
const SEEDS = [11, 12, 13, 14, 15, 16, 17];
/** Counted once, untimed, before the runs: compiled code, not the JIT's first passes, is measured. */
const WARM_UP_SEED = 10;
/** js-tiktoken takes seconds per conversation: it counts the first messages of each, up to this many bytes. */
const SLOW_SLICE_BYTES = 256 * 1024;
const SLOW_SUBJECTS: ReadonlySet<TokenizerSubject> = new Set(["ctxpipe-js-tiktoken", "js-tiktoken"]);
const COLD_START_PROCESSES = 5;

const coldStartScript = fileURLToPath(new URL("./tokenizer-cold-start.ts", import.meta.url));
const benchDir = fileURLToPath(new URL("..", import.meta.url));

interface Workload {
  readonly texts: ReadonlyArray<string>;
  readonly bytes: number;
}

/** What a model is sent of each message: its content and each tool call's arguments. */
function messageTexts(seed: number): string[] {
  const texts: string[] = [];
  for (const message of generateConversation(MESSAGES, seed)) {
    if (message.content !== null && message.content.length > 0) texts.push(message.content);
    for (const call of message.tool_calls ?? []) texts.push(call.function.arguments);
  }
  return texts;
}

function workload(texts: ReadonlyArray<string>): Workload {
  return { texts, bytes: texts.reduce((total, text) => total + Buffer.byteLength(text), 0) };
}

function slice(full: Workload, bytes: number): Workload {
  const texts: string[] = [];
  let total = 0;
  for (const text of full.texts) {
    if (total >= bytes) break;
    texts.push(text);
    total += Buffer.byteLength(text);
  }
  return { texts, bytes: total };
}

interface Throughput {
  /** MB/s, one sample per conversation. */
  readonly rate: Timing;
  readonly tokens: number;
}

/** Counts every text of the workload; returns MB/s and the tokens counted. */
function countAll(count: (text: string) => number, { texts, bytes }: Workload): { rate: number; tokens: number } {
  let tokens = 0;
  const started = process.hrtime.bigint();
  for (const text of texts) tokens += count(text);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { rate: bytes / 1e6 / seconds, tokens };
}

/**
 * Runs every subject on run i's workload before any subject moves to run i + 1, so a slow moment of
 * a shared machine lands on all subjects alike and the ratios stay fair.
 */
function measureThroughputs(subjects: ReadonlyArray<TokenizerSubject>, countOf: (subject: TokenizerSubject) => (text: string) => number, workloadsOf: (subject: TokenizerSubject) => ReadonlyArray<Workload>): Map<TokenizerSubject, Throughput> {
  const rates = new Map<TokenizerSubject, number[]>(subjects.map((subject) => [subject, []]));
  const tokens = new Map<TokenizerSubject, number>(subjects.map((subject) => [subject, 0]));
  const runs = Math.min(...subjects.map((subject) => workloadsOf(subject).length));
  for (let run = 0; run < runs; run++) {
    for (const subject of subjects) {
      const counted = countAll(countOf(subject), workloadsOf(subject)[run]!);
      rates.get(subject)!.push(counted.rate);
      tokens.set(subject, tokens.get(subject)! + counted.tokens);
    }
  }
  return new Map(subjects.map((subject) => [subject, { rate: timingOf(rates.get(subject)!), tokens: tokens.get(subject)! }]));
}

const formatRate = (rate: Timing) => `${rate.median.toFixed(1)} MB/s (${rate.min.toFixed(1)}–${rate.max.toFixed(1)})`;
const times = (value: number) => `${value >= 10 ? Math.round(value) : value >= 1 ? value.toFixed(1) : value.toFixed(2)}×`;

async function coldStart(subject: TokenizerSubject): Promise<ReadonlyArray<ColdStartSample>> {
  const samples: ColdStartSample[] = [];
  for (let run = 0; run < COLD_START_PROCESSES; run++) {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--conditions=@ctxpipe/source", coldStartScript, subject], { cwd: benchDir });
    samples.push(JSON.parse(stdout) as ColdStartSample);
  }
  return samples;
}

export async function printTokenizerBenchmark(log: (line: string) => void): Promise<void> {
  const conversations = SEEDS.map((seed) => workload(messageTexts(seed)));
  const slices = conversations.map((conversation) => slice(conversation, SLOW_SLICE_BYTES));
  const megabytes = timingOf(conversations.map((conversation) => conversation.bytes / 1e6)).median;
  const sliceKilobytes = timingOf(slices.map((part) => part.bytes / 1024)).median;

  const warmUp = workload(messageTexts(WARM_UP_SEED));
  const counters = new Map<TokenizerSubject, (text: string) => number>();
  for (const subject of TOKENIZER_SUBJECTS) {
    const count = await loadTokenizerSubject(subject);
    countAll(count, SLOW_SUBJECTS.has(subject) ? slice(warmUp, SLOW_SLICE_BYTES) : warmUp);
    counters.set(subject, count);
  }
  const counterOf = (subject: TokenizerSubject) => counters.get(subject)!;
  const workloadsOf = (subject: TokenizerSubject) => (SLOW_SUBJECTS.has(subject) ? slices : conversations);

  log(`   o200k_base, generateConversation(${MESSAGES}) × ${SEEDS.length} seeds (${megabytes.toFixed(2)} MB of message text each), one run per conversation,`);
  log("   all tokenizers on one conversation before the next, after an untimed warm-up conversation");
  log("   Counting message by message (each message's content and each tool call's arguments):");
  const byMessage = measureThroughputs(TOKENIZER_SUBJECTS, counterOf, workloadsOf);
  const reference = byMessage.get("gpt-tokenizer")!.rate.median;
  for (const subject of TOKENIZER_SUBJECTS) {
    const { rate } = byMessage.get(subject)!;
    const slow = SLOW_SUBJECTS.has(subject) ? " *" : "";
    log(`   ${`${SUBJECT_LABELS[subject]}${slow}`.padEnd(56)} ${formatRate(rate).padEnd(24)} ${times(rate.median / reference)} gpt-tokenizer`);
  }
  log(`   * js-tiktoken is slow: it counts the first ${Math.round(sliceKilobytes)} KB of each conversation.`);

  const ours = byMessage.get("ctxpipe-gpt-tokenizer")!.tokens;
  const theirs = byMessage.get("gpt-tokenizer")!.tokens;
  const ourSlice = slices.reduce((total, part) => total + countAll(counterOf("ctxpipe-gpt-tokenizer"), part).tokens, 0);
  const agreement = [
    `${ours.toLocaleString("en-US")} tokens`,
    theirs === ours ? "gpt-tokenizer agrees" : `gpt-tokenizer counts ${(theirs - ours).toLocaleString("en-US")} more`,
    byMessage.get("ctxpipe-js-tiktoken")!.tokens === ourSlice ? "the js-tiktoken backend agrees on its slice" : "the js-tiktoken backend DISAGREES on its slice",
  ];
  log(`   Counted: ${agreement.join("; ")}.`);

  log("   Counting one concatenated string (all messages joined by newlines), which is why ctxpipe never concatenates:");
  const joined = new Map(TOKENIZER_SUBJECTS.map((subject) => [subject, workloadsOf(subject).map((part) => workload([part.texts.join("\n")]))]));
  const concatenated = measureThroughputs(TOKENIZER_SUBJECTS, counterOf, (subject) => joined.get(subject)!);
  for (const subject of TOKENIZER_SUBJECTS) {
    const { rate } = concatenated.get(subject)!;
    const perMessage = byMessage.get(subject)!.rate.median;
    log(`   ${SUBJECT_LABELS[subject].padEnd(56)} ${formatRate(rate).padEnd(24)} ${times(perMessage / rate.median)} the time of message by message`);
  }

  log(`   Cold start, fresh process each (import, data load, first count; ${COLD_START_PROCESSES} processes each; core already loaded):`);
  for (const subject of TOKENIZER_SUBJECTS) {
    const samples = await coldStart(subject);
    const time = timingOf(samples.map((sample) => sample.milliseconds));
    const rss = timingOf(samples.map((sample) => sample.rssMegabytes));
    const added = timingOf(samples.map((sample) => sample.addedMegabytes));
    log(
      `   ${SUBJECT_LABELS[subject].padEnd(56)} ${`${formatMilliseconds(time.median)} ms (${formatMilliseconds(time.min)}–${formatMilliseconds(time.max)})`.padEnd(24)} RSS ${Math.round(rss.median)} MB (+${Math.round(added.median)} MB: ${Math.round(added.min)}–${Math.round(added.max)})`,
    );
  }
}
