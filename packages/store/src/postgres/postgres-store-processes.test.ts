// Several processes, each with its own store and pool, appending to one conversation at the same time:
// the conversation keeps one total order with nothing lost, each process's messages stay in its own
// order, each batch stays contiguous, and a batch the database refuses leaves no trace and no gap.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import { afterEach, expect, test } from "vitest";
import type { WorkerPlan } from "./__fixtures__/append-worker.js";
import { usePostgresServer } from "./__fixtures__/use-postgres-server.js";
import { PostgresStore } from "./postgres-store.js";

const server = usePostgresServer();
const WORKER = path.join(import.meta.dirname, "__fixtures__", "append-worker.ts");
const PACKAGE_DIRECTORY = path.join(import.meta.dirname, "..", "..");
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

interface Worker {
  readonly ready: Promise<void>;
  readonly result: Promise<{ refused: number[] }>;
  go(): void;
}

function startWorker(plan: WorkerPlan): Worker {
  const child = spawn(process.execPath, ["--conditions=@ctxpipe/source", "--import", "tsx", WORKER, JSON.stringify(plan)], {
    cwd: PACKAGE_DIRECTORY,
    stdio: ["pipe", "pipe", "pipe"],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const lines = createInterface({ input: child.stdout });
  const output: string[] = [];
  let readyResolve: () => void;
  const ready = new Promise<void>((resolve) => {
    readyResolve = resolve;
  });
  lines.on("line", (line) => {
    if (line === "ready") readyResolve();
    else output.push(line);
  });
  const result = new Promise<{ refused: number[] }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      if (code === 0 && output.length === 1) resolve(JSON.parse(output[0]!) as { refused: number[] });
      else reject(new Error(`worker ${plan.worker} exited with ${signal ?? `code ${code}`}:\n${stderr}`));
    });
  });
  // A worker that dies before "ready" must fail the test, not hang it.
  return { ready: Promise.race([ready, result.then(() => {})]), result, go: () => child.stdin.end("go\n") };
}

const WORKERS = 4;

test.for([
  { mode: "one by one", batches: Array.from({ length: 60 }, () => 1), poison: false },
  { mode: "in batches of 1 to 7", batches: Array.from({ length: 25 }, (_, index) => 1 + (index % 7)), poison: false },
  { mode: "in batches, one of which the database refuses", batches: Array.from({ length: 25 }, (_, index) => 1 + (index % 7)), poison: true },
])("4 processes appending $mode keep one total order per conversation", { timeout: 60_000 }, async ({ batches, poison }) => {
  const schema = server.uniqueSchema();
  const conversationId = "shared";
  const setup = new PostgresStore({ connectionString: server.connectionString, schema });
  cleanups.push(() => setup.close());
  await setup.migrate();
  const admin = new pg.Pool({ connectionString: server.connectionString });
  admin.on("error", () => {});
  cleanups.push(() => admin.end());
  // Worker 1's batch 10 holds a message the trigger refuses; the whole batch must disappear.
  const poisoned = { worker: 1, batch: 10 };
  const poisonId = `w${poisoned.worker}-${batches.slice(0, poisoned.batch).reduce((sum, size) => sum + size, 0) + 1}`;
  if (poison) {
    await admin.query(`CREATE FUNCTION ${schema}.refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.body->>'id' = 'poison' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$`);
    await admin.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON ${schema}.ctxpipe_messages FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse_poison()`);
  }

  const workers = Array.from({ length: WORKERS }, (_, worker) =>
    startWorker({ connectionString: server.connectionString, schema, conversationId, worker, batches, poisonIds: poison ? [poisonId] : [] }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  for (const worker of workers) worker.go();
  // Meanwhile this process reloads again and again, incrementally: each load must be a prefix of the
  // final order, and the last one what a fresh store loads.
  const seen: string[][] = [];
  let appending = true;
  const reloading = (async () => {
    while (appending) seen.push((await setup.load(conversationId)).messages.map((message) => message.id));
  })();
  const results = await Promise.all(workers.map((worker) => worker.result));
  appending = false;
  await reloading;

  const ids = (await setup.load(conversationId)).messages.map((message) => message.id);
  const fresh = new PostgresStore({ connectionString: server.connectionString, schema, cachedConversations: 0 });
  cleanups.push(() => fresh.close());
  expect(ids).toStrictEqual((await fresh.load(conversationId)).messages.map((message) => message.id));
  expect(seen.length).toBeGreaterThan(0);
  for (const earlier of seen) expect(ids.slice(0, earlier.length)).toStrictEqual(earlier);
  const refusedBatches = poison ? [{ worker: poisoned.worker, batch: poisoned.batch }] : [];
  expect(results.flatMap((result, worker) => result.refused.map((batch) => ({ worker, batch })))).toEqual(refusedBatches);

  // Nothing lost, nothing extra: every message of every accepted batch, exactly once.
  const expected = new Map<number, string[][]>();
  for (let worker = 0; worker < WORKERS; worker++) {
    let next = 0;
    const accepted = batches
      .map((size) => Array.from({ length: size }, () => `w${worker}-${next++}`))
      .filter((_, batch) => !refusedBatches.some((refused) => refused.worker === worker && refused.batch === batch));
    expected.set(worker, accepted);
  }
  const expectedIds = [...expected.values()].flat(2);
  expect([...ids].sort()).toEqual([...expectedIds].sort());

  for (const [worker, accepted] of expected) {
    // Each process's messages in the order it appended them.
    expect(ids.filter((id) => id.startsWith(`w${worker}-`))).toEqual(accepted.flat());
    // Each batch in consecutive positions.
    for (const batch of accepted) {
      const start = ids.indexOf(batch[0]!);
      expect(ids.slice(start, start + batch.length)).toEqual(batch);
    }
  }

  // The sequence numbers are 1..n with no gap, even where a batch was refused.
  const numbers = await admin.query<{ min: string; max: string; count: string }>(
    `SELECT min(seq) AS min, max(seq) AS max, count(*) AS count FROM ${schema}.ctxpipe_messages WHERE conversation_id = $1`,
    [conversationId],
  );
  expect(numbers.rows[0]).toEqual({ min: "1", max: String(expectedIds.length), count: String(expectedIds.length) });
});
