// The agent loop: a history of N stored messages; each turn one message is appended and the context
// is rebuilt within a budget of half the history's tokens. ctxpipe keeps its pipeline and item objects
// across turns; LangChain.js trimMessages gets a memoized exact counter. Both append the new message
// inside the timed turn. A stateless server's rebuild from scratch is timed too.
import { createPipeline, importStoredMessages, type Item, type Tokenizer } from "@ctxpipe/core";
import type { BaseMessage } from "@langchain/core/messages";
import { SystemMessage } from "@langchain/core/messages";
import { AGENT_SYSTEM_PROMPT } from "./agent-system-prompt.js";
import { generateConversation, type StoredMessage } from "./generate-conversation.js";
import { measure, type Timing, timingOf } from "./measure.js";
import { toLangChainMessage, toLangChainMessages } from "./to-langchain-messages.js";
import { TrimMessagesBaseline } from "./trim-messages-baseline.js";

export { AGENT_SYSTEM_PROMPT };

export interface AgentLoopOptions {
  /** History length before the first timed turn. */
  readonly messages: number;
  /** Timed turns for ctxpipe (reusing its pipeline and items). */
  readonly ctxpipeTurns: number;
  /** Timed turns for trimMessages, which is slow at 10,000 messages. */
  readonly trimMessagesTurns: number;
  /** Timed turns for ctxpipe rebuilding from scratch. */
  readonly fromScratchTurns: number;
  /** The exact tokenizer ctxpipe counts with. */
  readonly tokenizer: Tokenizer;
  readonly seed?: number;
}

export interface AgentLoopFigures {
  readonly messages: number;
  readonly megabytes: number;
  /** Half the history's exact o200k tokens, the budget of every rebuild. */
  readonly budgetTokens: number;
  /** Per turn, reusing the pipeline and items; undefined (with the reason) when core could not build. */
  readonly ctxpipe: Timing | undefined;
  /** Per turn, new pipeline and freshly imported items. */
  readonly fromScratch: Timing | undefined;
  readonly ctxpipeFailure: string | undefined;
  readonly trimMessages: Timing;
  /** Median messages sent (system included) by each, to show they do comparable work. */
  readonly ctxpipeMessagesKept: number | undefined;
  readonly trimMessagesKept: number;
}

export async function agentLoopBenchmark(options: AgentLoopOptions): Promise<AgentLoopFigures> {
  const { messages } = options;
  const turns = Math.max(options.ctxpipeTurns, options.trimMessagesTurns, options.fromScratchTurns);
  const stored = generateConversation(messages + turns, options.seed);
  const history = stored.slice(0, messages);
  const upcoming = stored.slice(messages);
  const megabytes = Buffer.byteLength(JSON.stringify(history)) / 1e6;

  const baseline = new TrimMessagesBaseline();
  const system = new SystemMessage(AGENT_SYSTEM_PROMPT);
  const budgetTokens = Math.floor(baseline.countTokens([system, ...toLangChainMessages(history)]) / 2);

  const ctxpipe = await ctxpipeLoop(history, upcoming, budgetTokens, options);
  const trim = await trimMessagesLoop(baseline, [system, ...toLangChainMessages(history)], upcoming, budgetTokens, options.trimMessagesTurns);
  return { messages, megabytes, budgetTokens, ...ctxpipe, trimMessages: trim.timing, trimMessagesKept: trim.kept };
}

async function ctxpipeLoop(
  history: ReadonlyArray<StoredMessage>,
  upcoming: ReadonlyArray<StoredMessage>,
  maxTokens: number,
  options: AgentLoopOptions,
): Promise<Pick<AgentLoopFigures, "ctxpipe" | "fromScratch" | "ctxpipeFailure" | "ctxpipeMessagesKept">> {
  const buildOptions = { model: "gpt-4o", tokenizer: options.tokenizer, maxTokens, system: AGENT_SYSTEM_PROMPT };
  const kept: number[] = [];
  const check = (result: { tokenCount: number; metadata: { outputCount: number } }) => {
    if (result.tokenCount > maxTokens) throw new Error(`ctxpipe sent ${result.tokenCount} tokens over a budget of ${maxTokens}`);
    kept.push(result.metadata.outputCount);
  };
  try {
    // The app keeps its pipeline and its imported items; each turn adds the new message's items.
    const pipeline = createPipeline();
    const items: Item[] = importStoredMessages(history);
    check(await pipeline.build(items, buildOptions));
    kept.length = 0;
    const reused = await measure(options.ctxpipeTurns, async (turn) => {
      items.push(...importStoredMessages([upcoming[turn]!]));
      check(await pipeline.build(items, buildOptions));
    });

    // A stateless handler: a new pipeline and the whole history imported again, every turn.
    const fromScratch = await measure(options.fromScratchTurns, async (turn) => {
      await createPipeline().build(importStoredMessages([...history, ...upcoming.slice(0, turn + 1)]), buildOptions);
    });
    return { ctxpipe: reused, fromScratch, ctxpipeFailure: undefined, ctxpipeMessagesKept: timingOf(kept).median };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
    return { ctxpipe: undefined, fromScratch: undefined, ctxpipeFailure: reason, ctxpipeMessagesKept: undefined };
  }
}

async function trimMessagesLoop(
  baseline: TrimMessagesBaseline,
  messages: BaseMessage[],
  upcoming: ReadonlyArray<StoredMessage>,
  maxTokens: number,
  turns: number,
): Promise<{ timing: Timing; kept: number }> {
  const check = (trimmed: BaseMessage[]) => {
    const tokens = baseline.countTokens(trimmed);
    if (tokens > maxTokens) throw new Error(`trimMessages kept ${tokens} tokens over a budget of ${maxTokens}`);
    return trimmed.length;
  };
  // The first call counts (and memoizes) every message of the history; it is not a turn.
  check(await baseline.trim(messages, maxTokens));
  // Results are checked after the timed turns, so the check's counting is not timed.
  const results: BaseMessage[][] = [];
  const timing = await measure(turns, async (turn) => {
    messages.push(toLangChainMessage(upcoming[turn]!));
    results.push(await baseline.trim(messages, maxTokens));
  });
  const kept = results.map(check);
  return { timing, kept: timingOf(kept).median };
}
