// The child of row f: a process that never saw the conversation builds its next turn. Run as a script
// with one JSON argument (FreshProcessTask); prints one JSON line (FreshProcessReport) on stdout.
// Timed after a warm-up: open the store, then either ChatLoop.send (persist the user's message, load
// the log, import, build with exact gpt-4o counts and the default compression, the scripted answer
// persisted) or the library alone (load the log and its token counts, import, build with a
// TokenCountMemo over the exact tokenizer and the default compression chain).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { importStoredMessages } from "@ctxpipe/core";
import { type ConversationStore, JsonlStore, supportsTokenCounts } from "@ctxpipe/store";
import { PostgresStore } from "@ctxpipe/store/postgres";
import { createTokenizer, TokenCountMemo } from "@ctxpipe/tokenizers";
import { ChatLoop } from "../../packages/loop/src/index.js";
import { AGENT_SYSTEM_PROMPT } from "./agent-system-prompt.js";
import { benchLoopOptions } from "./bench-loop-options.js";
import { libraryPipeline } from "./library-pipeline.js";
import { peakRss } from "./peak-rss.js";
import { reuseDefeatingStore } from "./reuse-defeating-store.js";

export interface FreshProcessTask {
  readonly store: { readonly kind: "jsonl"; readonly directory: string } | { readonly kind: "postgres"; readonly connectionString: string; readonly schema: string };
  readonly conversationId: string;
  readonly userInput: string;
  /** False: the store's token count methods are hidden, so every text is tokenized again. */
  readonly persistedCounts: boolean;
  /** "loop" (default): ChatLoop.send. "library": load, import and build with a TokenCountMemo, nothing appended. */
  readonly path?: "loop" | "library";
}

export interface FreshProcessReport {
  /** Process start to the timed turn: Node, tsx, the modules and one warm-up send, in milliseconds. */
  readonly startMs: number;
  /** Store opened, send returned: load + import + build + the two appends, in milliseconds. */
  readonly turnMs: number;
  /** Token count records the store held after the turn (0 when hidden or not kept). */
  readonly countRecords: number;
  readonly messages: number;
  /** Peak resident set of this process, in bytes. */
  readonly peakRss: number;
}

/** gpt-4o's budget, as the loop gives it: the 128,000-token window with the 16,384-token output limit reserved. */
const LIBRARY_BUDGET = { maxTokens: 128_000, reserveOutputTokens: 16_384 };

async function run(task: FreshProcessTask): Promise<FreshProcessReport> {
  // A host behind a load balancer is up and has served other conversations: one send without a
  // conversation id (nothing loaded or stored) loads the tokenizer's ranks and warms the code.
  await new ChatLoop(benchLoopOptions(undefined)).send({ userInput: "Warm up." });
  const startMs = performance.now();
  const store = task.store.kind === "jsonl" ? new JsonlStore({ directory: task.store.directory }) : new PostgresStore({ connectionString: task.store.connectionString, schema: task.store.schema });
  try {
    const seen = reuseDefeatingStore(store, { copyMessages: false, hideTokenCounts: !task.persistedCounts });
    const messages = task.path === "library" ? await libraryTurn(seen, task.conversationId) : await loopTurn(seen, task);
    const turnMs = performance.now() - startMs;
    const countRecords = task.persistedCounts && supportsTokenCounts(store) ? (await store.loadTokenCounts(task.conversationId)).length : 0;
    return { startMs, turnMs, countRecords, messages, peakRss: peakRss() };
  } finally {
    await store.close();
  }
}

/** ChatLoop.send; the items of the request's build. */
async function loopTurn(store: ConversationStore, task: FreshProcessTask): Promise<number> {
  const result = await new ChatLoop(benchLoopOptions(store)).send({ conversationId: task.conversationId, userInput: task.userInput });
  if (result.status !== "completed") throw new Error(`the send ended ${result.status}: ${result.error?.message ?? ""}`);
  return result.lastBuild?.report.entries.length ?? 0;
}

/** Load, import and build, counting through a memo loaded with the store's records (when it keeps any); the items built. */
async function libraryTurn(store: ConversationStore, conversationId: string): Promise<number> {
  const memo = new TokenCountMemo(createTokenizer("gpt-4o"));
  const [conversation, records] = await Promise.all([store.load(conversationId), supportsTokenCounts(store) ? store.loadTokenCounts(conversationId) : []]);
  memo.add(records);
  const items = importStoredMessages(conversation.messages);
  const result = await libraryPipeline(true).build(items, { model: "gpt-4o", tokenizer: memo.tokenizer, ...LIBRARY_BUDGET, system: AGENT_SYSTEM_PROMPT });
  if (result.tokenCount > LIBRARY_BUDGET.maxTokens) throw new Error(`the build sent ${result.tokenCount} tokens over ${LIBRARY_BUDGET.maxTokens}`);
  return items.length;
}

// A script only when run directly (the parent imports the types).
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const report = await run(JSON.parse(process.argv[2]!) as FreshProcessTask);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
