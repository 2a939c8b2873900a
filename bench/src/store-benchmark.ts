// Conversation stores: how fast messages get in (awaited one by one, from many concurrent callers, in
// batches) and how long a long conversation takes to load, for any ConversationStore. The same plan
// runs against each store, so the figures compare side by side. The benchmark checks what it loaded:
// a store that lost or reordered a message fails it rather than printing a fast figure.
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type ConversationStore, JsonlStore, type StoredMessage } from "@ctxpipe/store";
import { PostgresStore } from "@ctxpipe/store/postgres";
import { findPostgresBinaries } from "@ctxpipe/test-binaries";
import { type PostgresTestServer, startPostgresServer } from "../../packages/store/src/postgres/__fixtures__/start-postgres-server.js";
import { generateConversation } from "./generate-conversation.js";
import { formatMilliseconds, formatRatio, formatTiming, type Timing, timingOf } from "./measure.js";

export interface StoreBenchmarkPlan {
  /** Runs of `appends` appends, each awaited before the next. */
  readonly oneByOne: { readonly runs: number; readonly appends: number };
  /** Runs in which `callers` callers append `appendsPerCaller` messages each, all at once. */
  readonly concurrent: { readonly runs: number; readonly callers: number; readonly appendsPerCaller: number };
  /** Runs of `batchesPerRun` batches of `batchSize`; together they write the conversation the loads read. */
  readonly batches: { readonly runs: number; readonly batchesPerRun: number; readonly batchSize: number };
  /** Loads of that conversation, cold (a new store object each) and warm (the same store, after one more append). */
  readonly loadRuns: number;
}

export const STORE_BENCHMARK_PLAN: StoreBenchmarkPlan = {
  oneByOne: { runs: 7, appends: 40 },
  concurrent: { runs: 7, callers: 100, appendsPerCaller: 5 },
  batches: { runs: 5, batchesPerRun: 20, batchSize: 100 },
  loadRuns: 7,
};

export interface StoreFigures {
  /** Appends per second, awaited one by one (one durable write each). */
  readonly oneByOne: Timing;
  /** Appends per second with many callers at once (group commit). */
  readonly concurrent: Timing;
  /** Messages per second appended in batches. */
  readonly batched: Timing;
  /** Messages in the conversation the loads read, and its size as JSON. */
  readonly loadedMessages: number;
  readonly loadedMegabytes: number;
  /** Milliseconds to load it with a store object that never saw it (what a restarted process pays). */
  readonly loadCold: Timing;
  /** Milliseconds to load it again with the same store, after one more append (a turn of a live loop). */
  readonly loadWarm: Timing;
}

/**
 * Runs the plan against stores from `open`, which must give a store on the same, initially empty data
 * each time it is called. Every store opened is closed, also when a step fails.
 */
export async function storeBenchmark(open: () => ConversationStore, plan: StoreBenchmarkPlan = STORE_BENCHMARK_PLAN): Promise<StoreFigures> {
  const opened: ConversationStore[] = [];
  const openStore = () => {
    const store = open();
    opened.push(store);
    return store;
  };
  try {
    const store = openStore();
    const messages = messageSource();

    const oneByOne: number[] = [];
    for (let run = 0; run < plan.oneByOne.runs; run++) {
      const batch = messages.take(plan.oneByOne.appends);
      const seconds = await secondsOf(async () => {
        for (const message of batch) await store.append("one-by-one", message);
      });
      oneByOne.push(batch.length / seconds);
    }

    const concurrent: number[] = [];
    for (let run = 0; run < plan.concurrent.runs; run++) {
      const perCaller = Array.from({ length: plan.concurrent.callers }, () => messages.take(plan.concurrent.appendsPerCaller));
      const seconds = await secondsOf(() =>
        Promise.all(
          perCaller.map(async (own) => {
            for (const message of own) await store.append("concurrent", message);
          }),
        ),
      );
      concurrent.push((plan.concurrent.callers * plan.concurrent.appendsPerCaller) / seconds);
    }

    const { runs, batchesPerRun, batchSize } = plan.batches;
    const conversation = asPersisted(generateConversation(runs * batchesPerRun * batchSize), "long");
    const batched: number[] = [];
    for (let run = 0; run < runs; run++) {
      const start = run * batchesPerRun * batchSize;
      const seconds = await secondsOf(async () => {
        for (let batch = 0; batch < batchesPerRun; batch++) {
          const from = start + batch * batchSize;
          await store.append("long", conversation.slice(from, from + batchSize));
        }
      });
      batched.push((batchesPerRun * batchSize) / seconds);
    }

    // One load before timing: the live store has then seen the conversation, as a loop that loaded it on
    // an earlier turn has, and PostgreSQL has set the hint bits of the rows just written (a one-off write
    // on their first read that a restarted process would not pay).
    const first = await store.load("long");
    expectCount("the first load", first.messages.length, conversation.length);
    const outOfPlace = first.messages.findIndex((message, index) => message.id !== conversation[index]!.id);
    if (outOfPlace !== -1) throw new Error(`the first load has ${first.messages[outOfPlace]!.id} at position ${outOfPlace}, expected ${conversation[outOfPlace]!.id}`);
    // Cold and warm loads take turns, so that background work (a checkpoint, a collection) falls on both.
    const loadCold: number[] = [];
    const loadWarm: number[] = [];
    const timedLoad = async (from: ConversationStore, what: string, expected: number) => {
      let loaded = 0;
      const seconds = await secondsOf(async () => {
        loaded = (await from.load("long")).messages.length;
      });
      expectCount(what, loaded, expected);
      return 1000 * seconds;
    };
    for (let run = 0; run < plan.loadRuns; run++) {
      const fresh = openStore();
      loadCold.push(await timedLoad(fresh, "a cold load", conversation.length + run));
      await fresh.close();
      await store.append("long", messages.take(1));
      loadWarm.push(await timedLoad(store, "a warm load", conversation.length + run + 1));
    }

    const oneByOneCount = (await store.load("one-by-one")).messages.length;
    expectCount("the one-by-one conversation", oneByOneCount, plan.oneByOne.runs * plan.oneByOne.appends);
    const concurrentCount = (await store.load("concurrent")).messages.length;
    expectCount("the concurrent conversation", concurrentCount, plan.concurrent.runs * plan.concurrent.callers * plan.concurrent.appendsPerCaller);

    return {
      oneByOne: timingOf(oneByOne),
      concurrent: timingOf(concurrent),
      batched: timingOf(batched),
      loadedMessages: conversation.length,
      loadedMegabytes: conversation.reduce((bytes, message) => bytes + Buffer.byteLength(JSON.stringify(message)), 0) / 1e6,
      loadCold: timingOf(loadCold),
      loadWarm: timingOf(loadWarm),
    };
  } finally {
    await Promise.allSettled(opened.map((store) => store.close()));
  }
}

/** The benchmark's conversation as the loops persist it: the mode and run id chat mode stamps, tool results marked. */
function asPersisted(messages: ReturnType<typeof generateConversation>, prefix: string): StoredMessage[] {
  return messages.map((message) => ({
    ...message,
    id: `${prefix}-${message.id}`,
    mode: "agent",
    runId: "chat-bench",
    ...(message.role === "tool" ? { partType: "tool_result" } : {}),
  }));
}

/** Messages for the append measurements: realistic ones (0.1–21 KB, median about 1.3 KB), each id new. */
function messageSource(): { take(count: number): StoredMessage[] } {
  const pool = asPersisted(generateConversation(500, 7), "pool");
  let taken = 0;
  return {
    take(count) {
      return Array.from({ length: count }, () => {
        const message = pool[taken % pool.length]!;
        return { ...message, id: `append-${taken++}` };
      });
    },
  };
}

async function secondsOf(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function expectCount(what: string, actual: number, expected: number): void {
  if (actual !== expected) throw new Error(`${what} returned ${actual} messages, expected ${expected}`);
}

interface StoreColumn {
  readonly label: string;
  readonly figures?: StoreFigures;
  readonly failure?: string;
}

/**
 * Section 6 of `pnpm bench`: the JSON-lines store (fsync, then durability "none") in a fresh temp dir
 * and the PostgreSQL store on a throwaway local server with fsync on, side by side. The server and the
 * temp dirs are removed at the end, also when a step fails.
 */
export async function printStoreBenchmark(log: (line: string) => void, plan: StoreBenchmarkPlan = STORE_BENCHMARK_PLAN): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-bench-store-"));
  const columns: StoreColumn[] = [];
  try {
    log(`   temp dir on ${await filesystemOf(directory)}; each measurement appends to a conversation of its own; the loads read the one the batches wrote`);
    columns.push(await column("JsonlStore", () => storeBenchmark(() => new JsonlStore({ directory: join(directory, "fsync") }), plan)));
    columns.push(await column('JsonlStore "none"', () => storeBenchmark(() => new JsonlStore({ directory: join(directory, "none"), durability: "none" }), plan)));
    columns.push(
      await column("PostgresStore", async () => {
        let server: PostgresTestServer | undefined;
        try {
          const binaries = dirname(findPostgresBinaries().postgres);
          server = await startPostgresServer({ fsync: true });
          log(`   PostgreSQL from ${binaries} started in ${formatMilliseconds(server.startupMilliseconds)} ms: fsync and synchronous_commit on, Unix socket`);
          const { connectionString } = server;
          return await storeBenchmark(() => new PostgresStore({ connectionString, schema: "bench" }), plan);
        } finally {
          await server?.stop();
        }
      }),
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }

  const { oneByOne, concurrent, batches, loadRuns } = plan;
  const loaded = columns.find((entry) => entry.figures !== undefined)?.figures;
  const conversation = loaded === undefined ? "" : ` ${loaded.loadedMessages.toLocaleString("en-US")} messages (${loaded.loadedMegabytes.toFixed(1)} MB)`;
  const rows: ReadonlyArray<readonly [string, (figures: StoreFigures) => string]> = [
    [`appends/s, awaited one by one (${oneByOne.runs} × ${oneByOne.appends})`, (figures) => formatRate(figures.oneByOne)],
    [`appends/s, ${concurrent.callers} callers at once (${concurrent.runs} × ${concurrent.callers} × ${concurrent.appendsPerCaller})`, (figures) => formatRate(figures.concurrent)],
    [`messages/s, batches of ${batches.batchSize} (${batches.runs} × ${batches.batchesPerRun})`, (figures) => formatRate(figures.batched)],
    [`load${conversation}, cold (×${loadRuns})`, (figures) => formatTiming(figures.loadCold)],
    [`load it warm, after one more append (×${loadRuns})`, (figures) => formatTiming(figures.loadWarm)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  log(`   ${"".padEnd(width)}${columns.map((entry) => entry.label.padEnd(28)).join("")}`.trimEnd());
  for (const [label, cell] of rows) {
    log(`   ${label.padEnd(width)}${columns.map((entry) => (entry.figures === undefined ? "—" : cell(entry.figures)).padEnd(28)).join("")}`.trimEnd());
  }
  for (const entry of columns) if (entry.failure !== undefined) log(`   ${entry.label} failed: ${entry.failure}`);
  log('   JsonlStore "none": durability: "none", no fsync (survives a killed process, not a power loss)');

  const jsonl = columns[0]?.figures;
  const pg = columns[2]?.figures;
  if (jsonl !== undefined && pg !== undefined) {
    log(
      `   PostgreSQL ÷ JSONL (fsync), by medians: throughput one by one ${formatRatio(pg.oneByOne, jsonl.oneByOne)}, ${concurrent.callers} callers ${formatRatio(pg.concurrent, jsonl.concurrent)}, ` +
        `batches ${formatRatio(pg.batched, jsonl.batched)}; load time cold ${formatRatio(pg.loadCold, jsonl.loadCold)}, warm ${formatRatio(pg.loadWarm, jsonl.loadWarm)}`,
    );
  }
  log(`   the cold PostgreSQL load includes connecting a new pool; the store keeps no cache, so its warm load reads everything again`);
}

async function column(label: string, run: () => Promise<StoreFigures>): Promise<StoreColumn> {
  try {
    return { label, figures: await run() };
  } catch (error) {
    return { label, failure: (error as Error).message.split("\n")[0] ?? String(error) };
  }
}

/** "2,140/s (1,980–2,600)". */
function formatRate(timing: Timing): string {
  const number = (value: number) => Math.round(value).toLocaleString("en-US");
  return `${number(timing.median)}/s (${number(timing.min)}–${number(timing.max)})`;
}

/** The type of the filesystem holding `path` ("ext4", "tmpfs"), from /proc/mounts; fsync costs depend on it. */
async function filesystemOf(path: string): Promise<string> {
  try {
    const real = await realpath(path);
    let best = { mountPoint: "", type: "an unknown filesystem" };
    for (const line of (await readFile("/proc/mounts", "utf8")).split("\n")) {
      const [, mountPoint, type] = line.split(" ");
      if (mountPoint === undefined || type === undefined) continue;
      const inside = real === mountPoint || real.startsWith(mountPoint.endsWith("/") ? mountPoint : `${mountPoint}/`);
      if (inside && mountPoint.length >= best.mountPoint.length) best = { mountPoint, type };
    }
    return best.type;
  } catch {
    return "an unknown filesystem";
  }
}
