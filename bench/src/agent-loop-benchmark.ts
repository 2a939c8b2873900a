// The agent loop: a history of N stored messages, one new message a turn, the context rebuilt each
// turn. Compares a rebuild that reuses the previous turns' work (same pipeline, same item objects)
// with a rebuild from scratch (new pipeline, freshly imported items), both in this process.
import { createPipeline, importStoredMessages, type ItemInput } from "@ctxpipe/core";
import { generateConversation } from "./generate-conversation.js";
import { medianMilliseconds } from "./measure.js";

export interface AgentLoopFigures {
  readonly messages: number;
  readonly megabytes: number;
  readonly coldBuildMs: number;
  readonly incrementalTurnMs: number;
  readonly fromScratchTurnMs: number;
}

export async function agentLoopBenchmark(messages: number, turns: number): Promise<AgentLoopFigures> {
  const stored = generateConversation(messages + turns);
  const history = stored.slice(0, messages);
  const megabytes = Buffer.byteLength(JSON.stringify(history)) / 1e6;
  const options = { model: "gpt-4o", system: "You are a senior build engineer." };

  const coldBuildMs = await medianMilliseconds(3, () => createPipeline().build(importStoredMessages(history), options));

  // Incremental: the app keeps its imported items and its pipeline; each turn adds one message.
  const pipeline = createPipeline();
  const items: ItemInput[] = importStoredMessages(history);
  await pipeline.build(items, options);
  const incrementalTurnMs = await medianMilliseconds(turns, async (turn) => {
    items.push(...importStoredMessages([stored[messages + turn]!]));
    await pipeline.build(items, options);
  });

  // From scratch: what a stateless handler does, re-importing and rebuilding everything every turn.
  const fromScratchTurnMs = await medianMilliseconds(Math.min(turns, 5), (turn) =>
    createPipeline().build(importStoredMessages(stored.slice(0, messages + turn + 1)), options),
  );

  return { messages, megabytes, coldBuildMs, incrementalTurnMs, fromScratchTurnMs };
}
