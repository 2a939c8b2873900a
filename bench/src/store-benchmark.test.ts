import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonlStore } from "@ctxpipe/store";
import { afterAll, expect, test } from "vitest";
import { printStoreBenchmark, type StoreBenchmarkPlan, storeBenchmark } from "./store-benchmark.js";

const tiny: StoreBenchmarkPlan = {
  oneByOne: { runs: 2, appends: 3 },
  concurrent: { runs: 2, callers: 4, appendsPerCaller: 2 },
  batches: { runs: 2, batchesPerRun: 2, batchSize: 10 },
  loadRuns: 2,
};

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

test("every measurement runs the planned number of times on a store, and the loads read the whole conversation", async () => {
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-bench-store-test-"));
  directories.push(directory);
  const figures = await storeBenchmark(() => new JsonlStore({ directory }), tiny);
  expect([figures.oneByOne.runs, figures.concurrent.runs, figures.batched.runs, figures.loadCold.runs, figures.loadWarm.runs]).toEqual([2, 2, 2, 2, 2]);
  expect(figures.loadedMessages).toBe(40);
  expect(figures.loadedMegabytes).toBeGreaterThan(0);
  // The benchmark left what it measured: 40 messages from the batches plus one per warm load.
  const store = new JsonlStore({ directory });
  const { messages } = await store.load("long");
  expect(messages.map((message) => message.id).slice(0, 2)).toEqual(["long-m0", "long-m1"]);
  expect(messages).toHaveLength(42);
  expect((await store.load("concurrent")).messages).toHaveLength(16);
  await store.close();
});

test("a benchmark whose store loses messages fails instead of printing a figure", async () => {
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-bench-store-test-"));
  directories.push(directory);
  // Every store object gets a directory of its own, so a cold load finds nothing.
  let opened = 0;
  await expect(storeBenchmark(() => new JsonlStore({ directory: join(directory, String(opened++)) }), tiny)).rejects.toThrow(
    "a cold load returned 0 messages, expected 40",
  );
});

test("section 6 prints all three stores side by side, the PostgreSQL server included", async () => {
  const lines: string[] = [];
  await printStoreBenchmark((line) => lines.push(line), tiny);
  const output = lines.join("\n");
  expect(output).not.toContain("failed");
  expect(output).toContain("PostgreSQL ÷ JSONL (fsync)");
  const loadRow = lines.find((line) => line.includes("load 40 messages"));
  expect(loadRow?.match(/ ms \(/g)).toHaveLength(3);
}, 60_000);
