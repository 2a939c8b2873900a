// The child of row f: a process that never saw the conversation builds its next turn. Run as a script
// with one JSON argument (FreshProcessTask); prints one JSON line (FreshProcessReport) on stdout.
// Timed from after this module's imports: open the store, ChatLoop.send (persist the user's message,
// load the log, import, build with exact gpt-4o counts and the default compression, the scripted
// answer persisted).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonlStore, supportsTokenCounts } from "@ctxpipe/store";
import { PostgresStore } from "@ctxpipe/store/postgres";
import { ChatLoop } from "../../packages/loop/src/index.js";
import { benchLoopOptions } from "./bench-loop-options.js";
import { peakRss } from "./peak-rss.js";
import { reuseDefeatingStore } from "./reuse-defeating-store.js";

export interface FreshProcessTask {
  readonly store: { readonly kind: "jsonl"; readonly directory: string } | { readonly kind: "postgres"; readonly connectionString: string; readonly schema: string };
  readonly conversationId: string;
  readonly userInput: string;
  /** False: the store's token count methods are hidden, so every text is tokenized again. */
  readonly persistedCounts: boolean;
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

async function run(task: FreshProcessTask): Promise<FreshProcessReport> {
  // A host behind a load balancer is up and has served other conversations: one send without a
  // conversation id (nothing loaded or stored) loads the tokenizer's ranks and warms the code.
  await new ChatLoop(benchLoopOptions(undefined)).send({ userInput: "Warm up." });
  const startMs = performance.now();
  const store = task.store.kind === "jsonl" ? new JsonlStore({ directory: task.store.directory }) : new PostgresStore({ connectionString: task.store.connectionString, schema: task.store.schema });
  try {
    const loop = new ChatLoop(benchLoopOptions(reuseDefeatingStore(store, { copyMessages: false, hideTokenCounts: !task.persistedCounts })));
    const result = await loop.send({ conversationId: task.conversationId, userInput: task.userInput });
    const turnMs = performance.now() - startMs;
    if (result.status !== "completed") throw new Error(`the send ended ${result.status}: ${result.error?.message ?? ""}`);
    const countRecords = task.persistedCounts && supportsTokenCounts(store) ? (await store.loadTokenCounts(task.conversationId)).length : 0;
    const messages = result.lastBuild?.report.entries.length ?? 0;
    return { startMs, turnMs, countRecords, messages, peakRss: peakRss() };
  } finally {
    await store.close();
  }
}

// A script only when run directly (the parent imports the types).
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const report = await run(JSON.parse(process.argv[2]!) as FreshProcessTask);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
