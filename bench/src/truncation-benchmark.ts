// Giant tool outputs in the agent loop: every turn a question, a tool call whose output is 10–500 KB
// of log lines, then a rebuild within the budget (the answer is appended after it, as a loop does).
// With truncation on (the default chain) and off (the same chain without truncate-tool-results), per
// turn: the time, whether the build failed (the newest result over the budget), and whether the
// request broke the provider's prompt cache (the previous request is not a prefix of the new one).
import { CompressionPlugin, DEFAULT_STRATEGIES, type StrategyInput } from "@ctxpipe/compression";
import { createPipeline, type ItemInput, type Tokenizer } from "@ctxpipe/core";
import { seededRandom } from "@ctxpipe/core/testing";
import { AGENT_SYSTEM_PROMPT } from "./agent-loop-benchmark.js";
import { measure, type Timing } from "./measure.js";

export interface TruncationConfiguration {
  readonly label: string;
  readonly strategies: ReadonlyArray<StrategyInput>;
}

export const TRUNCATION_CONFIGURATIONS: ReadonlyArray<TruncationConfiguration> = [
  { label: "truncation on (default chain)", strategies: DEFAULT_STRATEGIES },
  { label: "truncation off", strategies: DEFAULT_STRATEGIES.filter((strategy) => strategy !== "truncate-tool-results") },
];

export interface TruncationFigures {
  readonly label: string;
  readonly perTurn: Timing;
  readonly turns: number;
  /** Turns whose build failed (BUDGET_EXCEEDED: the newest turn alone did not fit). */
  readonly failed: number;
  /** Turns whose request did not start with the whole previous request, per 100 turns built. */
  readonly cacheBreaksPer100: number;
  /** Turns on which the newest tool output was in the request (whole or cut). */
  readonly newestOutputSent: number;
}

export interface TruncationBenchmarkFigures {
  readonly budgetTokens: number;
  readonly megabytes: number;
  readonly configurations: ReadonlyArray<TruncationFigures>;
}

const LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
const PATHS = ["/api/items", "/api/users", "/api/orders", "/health", "/api/search"];

/** A log of about `bytes` characters, line by line. */
export function logOutput(bytes: number, next: () => number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 0; length < bytes; line++) {
    const text = `2026-11-25T10:${String(Math.floor(line / 60) % 60).padStart(2, "0")}:${String(line % 60).padStart(2, "0")}.${String(Math.floor(next() * 1000)).padStart(3, "0")}Z ${LEVELS[Math.floor(next() * LEVELS.length)]} worker-${Math.floor(next() * 8)} ${PATHS[Math.floor(next() * PATHS.length)]}/${Math.floor(next() * 100000)} took ${Math.floor(next() * 900)} ms`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join("\n");
}

/** The loop's turns: a question, a call, its 10–500 KB output, and the answer appended after the build. */
export function giantOutputTurns(turns: number, seed = 42): Array<{ readonly before: ItemInput[]; readonly answer: ItemInput }> {
  const next = seededRandom(seed);
  return Array.from({ length: turns }, (_, turn) => {
    const bytes = 10_000 + Math.floor(next() * 490_000);
    return {
      before: [
        { id: `u${turn}`, type: "user", text: `Turn ${turn}: what went wrong in the last deploy?` },
        { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_log", arguments: `{"service":"api","page":${turn}}` }] },
        { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_log", output: logOutput(bytes, next) },
      ],
      answer: { id: `a${turn}`, type: "assistant", text: `Turn ${turn}: the log shows slow requests on worker ${turn % 8}; nothing failed.` },
    };
  });
}

export async function truncationBenchmark(turns: number, tokenizer: Tokenizer, budgetTokens = 64_000): Promise<TruncationBenchmarkFigures> {
  const script = giantOutputTurns(turns);
  const megabytes = script.reduce((total, turn) => total + (turn.before[2] as { output: string }).output.length, 0) / 1e6;
  const configurations: TruncationFigures[] = [];
  for (const configuration of TRUNCATION_CONFIGURATIONS) {
    const pipeline = createPipeline({ plugins: [new CompressionPlugin({ strategies: [...configuration.strategies] })] });
    const items: ItemInput[] = [];
    let failed = 0;
    let built = 0;
    let cacheBreaks = 0;
    let newestOutputSent = 0;
    const perTurn = await measure(turns, async (turn) => {
      const { before, answer } = script[turn]!;
      items.push(...before);
      try {
        const result = await pipeline.build(items, { model: "gpt-4o", tokenizer, maxTokens: budgetTokens, system: AGENT_SYSTEM_PROMPT });
        built++;
        if (result.report.cache.compared && result.report.cache.breaksAt !== undefined) cacheBreaks++;
        if (result.includedIds.includes(`t${turn}`)) newestOutputSent++;
      } catch {
        failed++;
      }
      items.push(answer);
    });
    configurations.push({ label: configuration.label, perTurn, turns, failed, cacheBreaksPer100: built === 0 ? 0 : (cacheBreaks * 100) / built, newestOutputSent });
  }
  return { budgetTokens, megabytes, configurations };
}
