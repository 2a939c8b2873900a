// Runs the guide's code for real: both SDKs, pointed at the local provider server, two turns each on a
// conversation long enough to be compressed, each stored in a JSON-lines store of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { JsonlStore } from "@ctxpipe/store";
import OpenAI from "openai";
import { runAnthropicTurn } from "./anthropic-turn.js";
import type { AgentConversation, TurnResult } from "./conversation.js";
import { storeEarlierTurns } from "./history.js";
import { runOpenAITurn } from "./openai-turn.js";
import { createAgentPipeline } from "./pipeline.js";
import { type Provider, type ProviderServer, startProviderServer } from "./provider-server.js";
import { anthropicSummarizer, openAISummarizer } from "./summarizer.js";

/** Tokens of context per call: far below gpt-4o's 128,000, so a short conversation shows compression. */
export const CONTEXT_LIMIT = 12_000;
/** Earlier turns already in the store when the example starts. */
export const EARLIER_TURNS = 40;
export const USER_MESSAGES = ["Run the ledger tests and tell me what fails.", "Now read src/rounding.ts and tell me how it rounds negative amounts."] as const;

export interface ProviderRun {
  readonly provider: Provider;
  readonly turns: ReadonlyArray<TurnResult>;
  /** The summary records in the store after each turn. */
  readonly storedRecordIds: ReadonlyArray<ReadonlyArray<string>>;
}

export interface ExampleRun {
  readonly runs: ReadonlyArray<ProviderRun>;
  readonly server: ProviderServer;
}

export async function runExample(options: { quiet?: boolean; providers?: ReadonlyArray<Provider> } = {}): Promise<ExampleRun> {
  const server = await startProviderServer(options.quiet === undefined ? {} : { quiet: options.quiet });
  const directory = mkdtempSync(join(tmpdir(), "ctxpipe-agent-turn-"));
  const store = new JsonlStore({ directory });
  // The real clients: only the base URL differs from production. No retries, so a refused request fails at once.
  const openai = new OpenAI({ apiKey: "local", baseURL: `${server.url}/v1`, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: "local", baseURL: server.url, maxRetries: 0 });
  try {
    const runs: ProviderRun[] = [];
    for (const provider of options.providers ?? (["openai", "anthropic"] as const)) {
      const conversation: AgentConversation = {
        store,
        id: `agent-turn-${provider}`,
        pipeline: createAgentPipeline(provider === "openai" ? openAISummarizer(openai) : anthropicSummarizer(anthropic)),
        contextLimit: CONTEXT_LIMIT,
      };
      await storeEarlierTurns(store, conversation.id, EARLIER_TURNS);
      const turns: TurnResult[] = [];
      const storedRecordIds: string[][] = [];
      for (const text of USER_MESSAGES) {
        turns.push(provider === "openai" ? await runOpenAITurn(openai, conversation, text) : await runAnthropicTurn(anthropic, conversation, text));
        storedRecordIds.push((await store.load(conversation.id)).summaries.map((record) => record.id));
      }
      runs.push({ provider, turns, storedRecordIds });
    }
    return { runs, server };
  } finally {
    await store.close();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
