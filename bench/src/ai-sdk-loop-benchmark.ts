// The AI SDK agent loop: a history of N messages kept as ModelMessages; each turn one step (a message,
// with the results of its calls) is appended and the next prompt is prepared within half the history's tokens.
// ctxpipe runs inside `prepareStep` (one context kept for the run, as an agent keeps it); the AI SDK's
// own answer is `pruneMessages`, timed alone (it has no budget) and followed by what a user adds to
// meet one: the newest messages that fit, counted exactly and remembered per message. Every prompt is
// checked afterwards (untimed) for its tokens and for calls and results that lost their pair.
import { createAiSdkContext } from "@ctxpipe/ai-sdk";
import type { Tokenizer } from "@ctxpipe/core";
import { type ModelMessage, pruneMessages } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { AGENT_SYSTEM_PROMPT } from "./agent-system-prompt.js";
import { generateConversation } from "./generate-conversation.js";
import { measure, type Timing, timingOf } from "./measure.js";
import { ModelMessagesCounter } from "./model-messages-counter.js";
import { modelMessagesProblems } from "./model-messages-problems.js";
import { toModelMessages } from "./to-model-messages.js";

export interface AiSdkLoopOptions {
  /** History length before the first timed turn. */
  readonly messages: number;
  /** Timed turns for each loop. */
  readonly turns: number;
  /** The exact tokenizer ctxpipe counts with (the model's, from the registry, if absent). */
  readonly tokenizer?: Tokenizer;
  readonly seed?: number;
}

/** One loop's figures: time per turn and what its prompts were like. */
export interface AiSdkLoopRow {
  readonly label: string;
  readonly perTurn: Timing;
  /** Median tokens of the prompt prepared each turn, by the same exact count for every row. */
  readonly tokens: number;
  /** Turns whose prompt was over the budget. */
  readonly overBudget: number;
  /** Turns whose prompt had a call without its result or a result without its call. */
  readonly unpaired: number;
  /** Median messages in the prompt. */
  readonly messagesSent: number;
}

export interface AiSdkLoopFigures {
  readonly messages: number;
  readonly megabytes: number;
  readonly budgetTokens: number;
  readonly rows: ReadonlyArray<AiSdkLoopRow>;
}

export async function aiSdkLoopBenchmark(options: AiSdkLoopOptions): Promise<AiSdkLoopFigures> {
  // Each turn appends one whole step, as an agent's prepareStep sees them: a user message, or a
  // model message with the results of the calls it made (never a call whose result is still running).
  const all = toModelMessages(generateConversation(options.messages + options.turns * 4, options.seed));
  const history = all.slice(0, stepEnd(all, options.messages - 1));
  const upcoming: ModelMessage[][] = [];
  for (let from = history.length; upcoming.length < options.turns && from < all.length; ) {
    const end = stepEnd(all, from);
    upcoming.push(all.slice(from, end));
    from = end;
  }
  const megabytes = Buffer.byteLength(JSON.stringify(history)) / 1e6;
  const counter = new ModelMessagesCounter();
  const budgetTokens = Math.floor(counter.countRequest(AGENT_SYSTEM_PROMPT, history) / 2);
  const run = (label: string, prepare: Prepare) => loop(label, prepare, history, upcoming, budgetTokens, counter, upcoming.length);

  const model = new MockLanguageModelV4({ modelId: "gpt-4o", provider: "openai.chat" });
  const context = createAiSdkContext({ maxTokens: budgetTokens, reserveOutputTokens: 0, system: AGENT_SYSTEM_PROMPT, ...(options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer }) });
  const ctxpipe = await run("ctxpipe in prepareStep", async (messages, turn) => {
    const step = await context.prepareStep({ messages, model, stepNumber: turn, steps: [] });
    return step.messages;
  });
  const prune = (messages: ModelMessage[]) => pruneMessages({ messages, reasoning: "before-last-message", toolCalls: "before-last-2-messages", emptyMessages: "remove" });
  const pruned = await run("pruneMessages (no budget)", async (messages) => prune(messages));
  const prunedToBudget = await run("pruneMessages + newest that fit", async (messages) => {
    const kept = prune(messages);
    let tokens = counter.countRequest(AGENT_SYSTEM_PROMPT, kept);
    let start = 0;
    while (tokens > budgetTokens && start < kept.length) tokens -= counter.countMessage(kept[start++]!);
    return kept.slice(start);
  });
  return { messages: options.messages, megabytes, budgetTokens, rows: [ctxpipe, pruned, prunedToBudget] };
}

/** The end (exclusive) of the step the message at `index` starts: it and the tool messages right after it. */
function stepEnd(messages: ReadonlyArray<ModelMessage>, index: number): number {
  let end = index + 1;
  while (end < messages.length && messages[end]!.role === "tool") end++;
  return end;
}

type Prepare = (messages: ModelMessage[], turn: number) => Promise<ReadonlyArray<ModelMessage>>;

async function loop(
  label: string,
  prepare: Prepare,
  history: ReadonlyArray<ModelMessage>,
  upcoming: ReadonlyArray<ReadonlyArray<ModelMessage>>,
  budgetTokens: number,
  counter: ModelMessagesCounter,
  turns: number,
): Promise<AiSdkLoopRow> {
  const messages = [...history];
  // The first call sees the whole history once (counts, imports); it is not a turn.
  await prepare(messages, 0);
  const prompts: Array<ReadonlyArray<ModelMessage>> = [];
  const perTurn = await measure(turns, async (turn) => {
    messages.push(...upcoming[turn]!);
    prompts.push(await prepare(messages, turn + 1));
  });
  // Checked after the timed turns, so the checks are not timed.
  const tokens = prompts.map((prompt) => counter.countRequest(AGENT_SYSTEM_PROMPT, prompt));
  return {
    label,
    perTurn,
    tokens: timingOf(tokens).median,
    overBudget: tokens.filter((count) => count > budgetTokens).length,
    unpaired: prompts.filter((prompt) => modelMessagesProblems(prompt).length > 0).length,
    messagesSent: timingOf(prompts.map((prompt) => prompt.length)).median,
  };
}
