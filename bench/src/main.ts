// `pnpm bench`: every figure measured side by side in this one process, printed as a median with the
// min–max of its runs, and as a ratio where a peer does the same work.
// BENCH_SECTIONS runs only some numbered sections: `BENCH_SECTIONS=9-12 pnpm bench` (or "3,9"; unset:
// all). Sections 9–12 are the paths of a turn (library with compression, the loops over each store,
// a reload after one append, a fresh process), each beside its reuse defeated and trimMessages; 13 is
// the prompt cache each provider would serve in an agent loop; 3b is the loop inside an AI SDK agent.
import { cpus } from "node:os";
import { createTokenizer } from "@ctxpipe/tokenizers";
import { agentLoopBenchmark } from "./agent-loop-benchmark.js";
import { aiSdkLoopBenchmark } from "./ai-sdk-loop-benchmark.js";
import { cliBenchmark } from "./cli-benchmark.js";
import { coldBuildBenchmark } from "./cold-build-benchmark.js";
import { compressionBenchmark } from "./compression-benchmark.js";
import { benchSections } from "./bench-sections.js";
import { formatMilliseconds, formatRatio, formatTiming, type Timing, timingOf } from "./measure.js";
import { formatMegabytes, peakRss } from "./peak-rss.js";
import { providerValidBenchmark } from "./provider-valid-benchmark.js";
import { ReuseSections } from "./reuse-sections.js";
import { printPromptCacheBenchmark } from "./prompt-cache-benchmark.js";
import { printStoreBenchmark } from "./store-benchmark.js";
import { printTokenizerBenchmark } from "./tokenizer-benchmark.js";
import { truncationBenchmark } from "./truncation-benchmark.js";

const log = (line: string) => console.log(line);
const number = (value: number) => Math.round(value).toLocaleString("en-US");
const turns = (timing: Timing) => `×${timing.runs}`;

const sections = benchSections(process.env.BENCH_SECTIONS, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
log(`ctxpipe benchmark · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}`);
log("Figures are medians (min–max) of the runs shown; ratios divide medians.");
if (process.env.BENCH_SECTIONS?.trim()) log(`Sections ${[...sections].join(", ")} only (BENCH_SECTIONS).`);

if (sections.has(1)) {
  log("\n1. Tokenizers");
  await printTokenizerBenchmark(log);
}

// The exact tokenizer is loaded here, once, as an app would; its load time is in section 1.
const tokenizer = createTokenizer("gpt-4o");

if (sections.has(2)) {
  log("\n2. Cold build: stored messages imported, new pipeline, one build with the exact o200k tokenizer within half the history's tokens");
  log("   (each run a conversation of its own seed, so nothing is cached from an earlier run)");
  log(`   ${"messages".padEnd(9)} ${"stored".padEnd(8)} ${"build".padEnd(28)} runs`);
  for (const [messages, runs] of [
    [100, 15],
    [1_000, 7],
    [10_000, 3],
  ] as const) {
    const figures = await coldBuildBenchmark(messages, runs, tokenizer);
    const build = figures.build === undefined ? `failed: ${figures.failure}` : formatTiming(figures.build);
    log(`   ${number(messages).padEnd(9)} ${`${figures.megabytes.toFixed(1)} MB`.padEnd(8)} ${build.padEnd(28)} ${runs}`);
}
}

if (sections.has(3)) {
  log("\n3. Agent loop: append one message, rebuild within half the history's tokens (exact o200k counts), time per turn");
  log("   ctxpipe keeps its pipeline and item objects; trimMessages (LangChain.js) counts with exact o200k, memoized per message");
  const loops = [];
  for (const [messages, trimMessagesTurns, fromScratchTurns] of [
    [1_000, 200, 5],
    [10_000, 10, 3],
  ] as const) {
    loops.push(await agentLoopBenchmark({ messages, ctxpipeTurns: 200, trimMessagesTurns, fromScratchTurns, tokenizer }));
}
log(`   ${"messages".padEnd(9)} ${"stored".padEnd(8)} ${"budget".padEnd(18)} ${"ctxpipe".padEnd(30)} ${"trimMessages".padEnd(30)} trimMessages ÷ ctxpipe`);
for (const loop of loops) {
  const ctxpipe = loop.ctxpipe === undefined ? "failed" : `${formatTiming(loop.ctxpipe)} ${turns(loop.ctxpipe)}`;
  const ratio = loop.ctxpipe === undefined ? "—" : formatRatio(loop.trimMessages, loop.ctxpipe);
  log(
    `   ${number(loop.messages).padEnd(9)} ${`${loop.megabytes.toFixed(1)} MB`.padEnd(8)} ${`${number(loop.budgetTokens)} tokens`.padEnd(18)} ${ctxpipe.padEnd(30)} ${`${formatTiming(loop.trimMessages)} ${turns(loop.trimMessages)}`.padEnd(30)} ${ratio}`,
  );
}
for (const loop of loops) {
  if (loop.ctxpipeFailure !== undefined) log(`   ctxpipe at ${number(loop.messages)} messages failed: ${loop.ctxpipeFailure}`);
}
const sent = loops.map((loop) => `${number(loop.messages)}: ctxpipe ${loop.ctxpipeMessagesKept === undefined ? "—" : number(loop.ctxpipeMessagesKept)}, trimMessages ${number(loop.trimMessagesKept)}`);
log(`   messages sent per turn (system included), median: ${sent.join("; ")}`);
log("   ctxpipe from scratch each turn (new pipeline, whole history imported again: a stateless server):");
for (const loop of loops) {
  if (loop.fromScratch === undefined || loop.ctxpipe === undefined) continue;
  log(`   ${number(loop.messages).padEnd(9)} ${formatTiming(loop.fromScratch)} ${turns(loop.fromScratch)}, ${formatRatio(loop.fromScratch, loop.ctxpipe)} the reused rebuild`);
}

  log("\n3b. The same loop in a Vercel AI SDK agent: the history kept as ModelMessages, each turn one step appended (a message, with its calls' results)");
  log("   ctxpipe inside prepareStep (one context for the run, exact gpt-4o counts, the default compression chain) against");
  log("   the AI SDK's pruneMessages (old tool calls and reasoning removed; it has no budget) and pruneMessages followed by");
  log("   the newest messages that fit (exact o200k counts remembered per message). Tokens by one exact count for every row;");
  log("   unpaired: turns whose prompt holds a call without its result or a result without its call (a provider refuses those)");
  for (const [messages, aiSdkTurns] of [
    [1_000, 100],
    [10_000, 20],
  ] as const) {
    const figures = await aiSdkLoopBenchmark({ messages, turns: aiSdkTurns, tokenizer });
    const ctxpipeRow = figures.rows[0]!;
    log(`   ${number(messages)} messages (${figures.megabytes.toFixed(1)} MB), budget ${number(figures.budgetTokens)} tokens, ${aiSdkTurns} turns:`);
    log(`   ${"".padEnd(3)}${"loop".padEnd(34)} ${"per turn".padEnd(30)} ${"ctxpipe ÷ it".padEnd(13)} ${"tokens sent".padEnd(12)} ${"messages".padEnd(9)} ${"over budget".padEnd(12)} unpaired`);
    for (const row of figures.rows) {
      // How many times this loop's time ctxpipe takes: it also counts exactly, compresses and repairs.
      const ratio = row === ctxpipeRow ? "1×" : formatRatio(ctxpipeRow.perTurn, row.perTurn);
      log(
        `   ${"".padEnd(3)}${row.label.padEnd(34)} ${formatTiming(row.perTurn).padEnd(30)} ${ratio.padEnd(13)} ${number(row.tokens).padEnd(12)} ${number(row.messagesSent).padEnd(9)} ${`${row.overBudget} of ${aiSdkTurns}`.padEnd(12)} ${row.unpaired} of ${aiSdkTurns}`,
      );
    }
  }
}

if (sections.has(4)) {
  log("\n4. Provider-valid: adversarial conversations built for openai, anthropic and gemini, checked against each provider's rules");
  const validRuns = [];
  for (const seed of [7, 8, 9]) validRuns.push(await providerValidBenchmark(1_000, seed));
  const perSecond = timingOf(validRuns.map((run) => run.perSecond));
  const problems = validRuns.reduce((total, run) => total + run.problems, 0);
  const items = validRuns.reduce((total, run) => total + run.items, 0);
  log(
    `   ${number(perSecond.median)} conversations/s (${number(perSecond.min)}–${number(perSecond.max)}) over ${validRuns.length} runs of 1,000 conversations (${number(items)} items), checked on all three providers; ${problems} problems found`,
  );
  log(`   (${formatMilliseconds(1000 / perSecond.median)} ms per conversation)`);
}

if (sections.has(5)) {
  log("\n5. Compression in the agent loop: 1,000 messages, append one and rebuild within half the history's tokens, 200 turns per configuration");
  log("   cut moves: turns on which the window's start moved, so a provider's prompt cache re-reads the whole history;");
  log("   reused: median share of the previous request's messages the new request starts with");
  const compression = await compressionBenchmark(1_000, 200, tokenizer);
  const fitOnly = compression.configurations[0]!;
  log(`   ${"configuration".padEnd(38)} ${"per turn".padEnd(44)} ${"tokens sent".padEnd(12)} ${"cut moves".padEnd(11)} ${"reused".padEnd(7)} summaries made`);
  for (const figures of compression.configurations) {
    const ratio = figures === fitOnly ? "" : ` (${formatRatio(figures.perTurn, fitOnly.perTurn)} FitBudget only)`;
    log(
      `   ${figures.label.padEnd(38)} ${`${formatTiming(figures.perTurn)}${ratio}`.padEnd(44)} ${number(figures.tokensSent).padEnd(12)} ${`${figures.cutMoves} of ${figures.turns}`.padEnd(11)} ${`${(figures.reused * 100).toFixed(1)}%`.padEnd(7)} ${figures.summarizerCalls}`,
    );
}
log(
  `   ${"trimMessages (LangChain.js)".padEnd(38)} ${`${formatTiming(compression.trimMessages.perTurn)} (${formatRatio(compression.trimMessages.perTurn, fitOnly.perTurn)} FitBudget only)`.padEnd(44)} ${"—".padEnd(12)} ${`${compression.trimMessages.cutMoves} of ${compression.trimMessages.turns}`.padEnd(11)} —`,
);
}

if (sections.has(6)) {
  log("\n6. Conversation stores: appends (each durable when it resolves) and loads of a long conversation, JsonlStore and PostgresStore side by side");
  log("   messages as the loops persist them (chat mode's fields; 0.1–21 KB, median 1.3 KB); rates are per run, medians (min–max)");
  await printStoreBenchmark(log);
}

if (sections.has(7)) {
  log("\n7. ctxpipe build on a stored file: the whole command (read, parse, import, build, print the JSON) within half the history's tokens,");
  log("   against the exact o200k tokenizer counting every message's text (content, tool call arguments, tool results) one by one");
  log("   (build and --report in-process through runCli, output discarded; node dist/bin.js a child process, Node start and loading included;");
  log("   each run a .jsonl file of its own seed; ratios: ÷ the tokenizer alone)");
  log(`   ${"messages".padEnd(9)} ${"file".padEnd(8)} ${"tokenizer alone".padEnd(24)} ${"ctxpipe build".padEnd(30)} ${"build --report".padEnd(30)} ${"node dist/bin.js build".padEnd(30)} runs`);
  for (const [messages, runs] of [
    [1_000, 5],
    [10_000, 3],
  ] as const) {
    const figures = await cliBenchmark({ messages, runs, tokenizer });
    const versus = (timing: Timing) => `${formatTiming(timing)} ${formatRatio(timing, figures.tokenizer)}`;
    const executable = figures.executable === "not built" ? "not built (pnpm build)" : versus(figures.executable);
    log(
      `   ${number(messages).padEnd(9)} ${`${figures.megabytes.toFixed(1)} MB`.padEnd(8)} ${formatTiming(figures.tokenizer).padEnd(24)} ${versus(figures.build).padEnd(30)} ${versus(figures.report).padEnd(30)} ${executable.padEnd(30)} ${runs}`,
    );
}
}

if (sections.has(8)) {
  log("\n8. Giant tool outputs in the agent loop: each turn a question, a call and its 10–500 KB log output, then a rebuild within 64,000 tokens");
  log("   (exact o200k counts, one reused pipeline per configuration; off = the default chain without truncate-tool-results)");
  log("   cache breaks: requests that do not start with the whole previous request, per 100 turns built; failed: BUDGET_EXCEEDED");
  const truncation = await truncationBenchmark(100, tokenizer);
  log(`   ${truncation.configurations[0]!.turns} turns, ${truncation.megabytes.toFixed(1)} MB of tool output`);
  log(`   ${"configuration".padEnd(32)} ${"per turn".padEnd(30)} ${"cache breaks / 100".padEnd(19)} ${"failed".padEnd(7)} newest output sent`);
  for (const figures of truncation.configurations) {
    log(
      `   ${figures.label.padEnd(32)} ${formatTiming(figures.perTurn).padEnd(30)} ${figures.cacheBreaksPer100.toFixed(1).padEnd(19)} ${String(figures.failed).padEnd(7)} ${figures.newestOutputSent} of ${figures.turns}`,
    );
}
}

const reuse = new ReuseSections({ log, tokenizer });
try {
  if (sections.has(9)) {
    log("\n9. Rebuilding every turn in the library: append one message, rebuild within half the history's tokens (exact o200k), per turn");
    await reuse.printLibrary();
  }
  if (sections.has(10)) {
    log("\n10. ChatLoop.send over a store: scripted model, exact gpt-4o counts, the loops' default compression, per send");
    await reuse.printLoops();
  }
  if (sections.has(11)) {
    log("\n11. A reload after one append: the conversation loaded again as a loop does every turn, 10,000 messages");
    await reuse.printReloads();
  }
  if (sections.has(12)) {
    log("\n12. A fresh process builds the next turn of a 10,000-message conversation it never saw (another host behind a load balancer)");
    await reuse.printFreshProcess();
  }
} finally {
  await reuse.close();
}
if (sections.has(13)) {
  log("\n13. Prompt caching in the agent loop: what each provider's prompt cache serves, with and without ctxpipe's cache breakpoints");
  await printPromptCacheBenchmark(log, tokenizer);
}

log(`\nThis process: RSS ${formatMegabytes(process.memoryUsage().rss)} now, peak ${formatMegabytes(peakRss())}.`);
