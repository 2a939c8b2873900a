// Compression in the agent loop: the same loop as section 3 (append one message, rebuild within a
// budget), once per compression configuration, on one reused pipeline each. Per turn: the time, the
// tokens sent, and how much of the previous request the new one starts with (what a provider's prompt
// cache can reuse). trimMessages, which re-fits its window exactly on every turn, is the peer for how
// often the window's start moves.
import { CompressionPlugin, type StrategyInput, type Summarizer } from "@ctxpipe/compression";
import { createPipeline, importStoredMessages, type Item, type Tokenizer } from "@ctxpipe/core";
import { type BaseMessage, SystemMessage } from "@langchain/core/messages";
import { AGENT_SYSTEM_PROMPT } from "./agent-loop-benchmark.js";
import { generateConversation } from "./generate-conversation.js";
import { measure, type Timing, timingOf } from "./measure.js";
import { toLangChainMessage, toLangChainMessages } from "./to-langchain-messages.js";
import { TrimMessagesBaseline } from "./trim-messages-baseline.js";

export interface CompressionConfiguration {
  readonly label: string;
  /** Undefined: core's default FitBudgetPlugin alone. */
  readonly strategies: ReadonlyArray<StrategyInput> | undefined;
}

/** A summarizer that answers at once without a model: the first words of each message. */
export const localSummarizer: Summarizer = (request) =>
  request.items
    .map((item) => ("text" in item ? item.text : item.type === "tool-result" ? item.output : ""))
    .map((text) => text.split(/\s+/).slice(0, 6).join(" "))
    .join("\n");

export const COMPRESSION_CONFIGURATIONS: ReadonlyArray<CompressionConfiguration> = [
  { label: "FitBudgetPlugin only (core default)", strategies: undefined },
  { label: "sliding-window", strategies: ["sliding-window"] },
  { label: "clear-tool-results → sliding-window", strategies: ["clear-tool-results", "sliding-window"] },
  { label: "clear → summarize → slide", strategies: ["clear-tool-results", "summarize", "sliding-window"] },
  { label: "summarize → sliding-window", strategies: ["summarize", "sliding-window"] },
];

export interface CompressionFigures {
  readonly label: string;
  readonly perTurn: Timing;
  readonly tokensSent: number;
  /**
   * Turns on which the window's start moved: the request shares no more than its system message with
   * the previous one, so a provider's prompt cache re-reads the whole history.
   */
  readonly cutMoves: number;
  /** Median share of the previous request's messages the new one starts with (what a prompt cache reuses). */
  readonly reused: number;
  readonly turns: number;
  /** Summaries the summarizer was asked for over the whole loop. */
  readonly summarizerCalls: number;
}

export interface CompressionBenchmarkFigures {
  readonly messages: number;
  readonly budgetTokens: number;
  readonly configurations: ReadonlyArray<CompressionFigures>;
  readonly trimMessages: { readonly perTurn: Timing; readonly cutMoves: number; readonly turns: number };
}

export async function compressionBenchmark(messages: number, turns: number, tokenizer: Tokenizer, seed = 42): Promise<CompressionBenchmarkFigures> {
  const stored = generateConversation(messages + turns, seed);
  const history = stored.slice(0, messages);
  const upcoming = stored.slice(messages);
  const baseline = new TrimMessagesBaseline();
  const system = new SystemMessage(AGENT_SYSTEM_PROMPT);
  const budgetTokens = Math.floor(baseline.countTokens([system, ...toLangChainMessages(history)]) / 2);
  const buildOptions = { model: "gpt-4o", tokenizer, maxTokens: budgetTokens, system: AGENT_SYSTEM_PROMPT };

  const configurations: CompressionFigures[] = [];
  for (const configuration of COMPRESSION_CONFIGURATIONS) {
    let summarizerCalls = 0;
    const summarizer: Summarizer = (request) => {
      summarizerCalls++;
      return localSummarizer(request);
    };
    const plugins = configuration.strategies === undefined ? [] : [new CompressionPlugin({ strategies: [...configuration.strategies], summarizer })];
    const pipeline = createPipeline({ plugins });
    const items: Item[] = importStoredMessages(history);
    // Records made are persisted and passed back, as an application would.
    let records = [...((await pipeline.build(items, buildOptions)).report.compression?.records ?? [])];
    const results: Array<{ tokenCount: number; report: { cache: { sameMessages: number; previousMessages: number } } }> = [];
    const perTurn = await measure(turns, async (turn) => {
      items.push(...importStoredMessages([upcoming[turn]!]));
      const result = await pipeline.build(items, { ...buildOptions, summaries: records });
      const made = result.report.compression?.records ?? [];
      if (made.length > 0) records = [...records, ...made];
      results.push(result);
    });
    for (const result of results) if (result.tokenCount > budgetTokens) throw new Error(`${configuration.label} sent ${result.tokenCount} tokens over ${budgetTokens}`);
    configurations.push({
      label: configuration.label,
      perTurn,
      tokensSent: timingOf(results.map((result) => result.tokenCount)).median,
      cutMoves: results.filter((result) => result.report.cache.sameMessages <= 1).length,
      reused: timingOf(results.map((result) => result.report.cache.sameMessages / result.report.cache.previousMessages)).median,
      turns,
      summarizerCalls,
    });
  }

  // trimMessages keeps the newest messages that fit: its window's first message moves on most turns.
  const lcMessages: BaseMessage[] = [system, ...toLangChainMessages(history)];
  let previousFirst: BaseMessage | undefined = (await baseline.trim(lcMessages, budgetTokens))[1];
  let cutMoves = 0;
  const firsts: Array<BaseMessage | undefined> = [];
  const perTurn = await measure(turns, async (turn) => {
    lcMessages.push(toLangChainMessage(upcoming[turn]!));
    firsts.push((await baseline.trim(lcMessages, budgetTokens))[1]);
  });
  for (const first of firsts) {
    if (first?.id !== previousFirst?.id) cutMoves++;
    previousFirst = first;
  }
  return { messages, budgetTokens, configurations, trimMessages: { perTurn, cutMoves, turns } };
}
