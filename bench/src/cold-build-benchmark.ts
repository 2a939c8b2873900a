// A full cold build: a stored conversation imported, a new pipeline, and one build with the exact
// tokenizer within half the history's tokens. Each run gets a conversation of its own seed, so no
// count cached by an earlier run (in core or in the tokenizer) can serve it.
import { createPipeline, importStoredMessages, type Tokenizer } from "@ctxpipe/core";
import { SystemMessage } from "@langchain/core/messages";
import { AGENT_SYSTEM_PROMPT } from "./agent-loop-benchmark.js";
import { generateConversation, type StoredMessage } from "./generate-conversation.js";
import { type Timing, timingOf } from "./measure.js";
import { toLangChainMessages } from "./to-langchain-messages.js";
import { TrimMessagesBaseline } from "./trim-messages-baseline.js";

export interface ColdBuildFigures {
  readonly messages: number;
  /** Median size of the stored conversations, JSON. */
  readonly megabytes: number;
  /** Import + new pipeline + build; undefined (with the reason) when core could not build. */
  readonly build: Timing | undefined;
  readonly failure: string | undefined;
}

export async function coldBuildBenchmark(messages: number, runs: number, tokenizer: Tokenizer, firstSeed = 1000): Promise<ColdBuildFigures> {
  const times: number[] = [];
  const sizes: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const stored = generateConversation(messages, firstSeed + run);
      sizes.push(Buffer.byteLength(JSON.stringify(stored)) / 1e6);
      // Counted with the baseline's counter, which shares no cache with ctxpipe.
      const maxTokens = halfTheTokens(stored);
      const started = process.hrtime.bigint();
      const result = await createPipeline().build(importStoredMessages(stored), { model: "gpt-4o", tokenizer, maxTokens, system: AGENT_SYSTEM_PROMPT });
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (result.tokenCount > maxTokens) throw new Error(`ctxpipe sent ${result.tokenCount} tokens over a budget of ${maxTokens}`);
    }
    return { messages, megabytes: timingOf(sizes).median, build: timingOf(times), failure: undefined };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
    return { messages, megabytes: sizes.length > 0 ? timingOf(sizes).median : 0, build: undefined, failure: reason };
  }
}

function halfTheTokens(stored: ReadonlyArray<StoredMessage>): number {
  return Math.floor(new TrimMessagesBaseline().countTokens([new SystemMessage(AGENT_SYSTEM_PROMPT), ...toLangChainMessages(stored)]) / 2);
}
