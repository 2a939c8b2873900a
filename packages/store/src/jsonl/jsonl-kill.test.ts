// DESIGN.md's "crash-safe log": a process killed with SIGKILL at a random moment, round after round on
// the same conversation, loses no acknowledged message, offloaded text or token count (counts are not
// fsynced, but a killed process loses nothing the system cache holds) and leaves logs that load (at most
// with a warning about a torn last line), which the next process repairs and appends to.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { offloadedRecord, tokenCountRecord } from "./__fixtures__/append-child-records.js";
import { spawnAppendChild } from "./__fixtures__/spawn-append-child.js";
import { JsonlStore } from "./jsonl-store.js";

const ROUNDS = 24;

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-kill-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

test(`kill -9 during appends, ${ROUNDS} times: every acknowledged message is in the log and the log loads`, { timeout: 120_000 }, async () => {
  const acknowledged: string[] = [];
  const acknowledgedHandles: string[] = [];
  const acknowledgedCounts: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const child = spawnAppendChild(["forever", directory, "crash", `r${round}`]);
    // Some rounds die before the first acknowledgement (inside the first write, lock or repair),
    // the others at a random moment of steady appending.
    await child.waitForLine((line) => line === "ready");
    if (round % 4 !== 0) await child.waitForLine((line) => line !== "ready" && !line.startsWith("warning") && !line.startsWith("offloaded") && !line.startsWith("counted"));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
    child.process.kill("SIGKILL");
    expect(await child.exited).toBe("SIGKILL");
    const roundAcknowledged = child.lines
      .filter((line) => line !== "ready" && !line.startsWith("warning") && !line.startsWith("offloaded") && !line.startsWith("counted"))
      .flatMap((line) => line.split(" "));
    acknowledged.push(...roundAcknowledged);
    acknowledgedHandles.push(...child.lines.filter((line) => line.startsWith("offloaded ")).map((line) => line.slice("offloaded ".length)));
    acknowledgedCounts.push(...child.lines.filter((line) => line.startsWith("counted ")).flatMap((line) => line.slice("counted ".length).split(" ")));

    // A fresh store each time: nothing cached, the file read from scratch.
    const loaded = await new JsonlStore({ directory }).load("crash");
    expect(loaded.warnings.length).toBeLessThanOrEqual(1);
    const stored = loaded.messages.map((message) => message.id);
    expect(new Set(stored).size).toBe(stored.length);
    const storedSet = new Set(stored);
    expect(acknowledged.filter((id) => !storedSet.has(id))).toStrictEqual([]);
    const fresh = new JsonlStore({ directory });
    const handles = (await fresh.listOffloaded("crash")).map((info) => info.handle);
    expect(new Set(handles).size).toBe(handles.length);
    expect(acknowledgedHandles.filter((handle) => !handles.includes(handle))).toStrictEqual([]);
    for (const handle of acknowledgedHandles.slice(-3)) expect(await fresh.loadOffloaded("crash", handle)).toStrictEqual(offloadedRecord(handle));
    // A torn line of counts is skipped: what loads is exactly the acknowledged counts, maybe plus those
    // of a batch whose write completed as the process died.
    const counts = new Map((await fresh.loadTokenCounts("crash")).map((record) => [record.key, record]));
    expect(acknowledgedCounts.filter((key) => counts.get(key)?.tokens !== tokenCountRecord(key).tokens)).toStrictEqual([]);
    for (const record of counts.values()) expect(record).toStrictEqual(tokenCountRecord(record.key));
  }
  expect(acknowledged.length).toBeGreaterThan(ROUNDS);
  expect(acknowledgedHandles.length).toBeGreaterThan(ROUNDS);
  expect(acknowledgedCounts.length).toBeGreaterThan(0);

  const store = new JsonlStore({ directory });
  await store.append("crash", { id: "after-the-crashes", role: "user", content: "still works" });
  await store.appendOffloaded("crash", [offloadedRecord("after_0")]);
  // Takes over a lock a child was killed holding while it wrote counts, as the next process's counts would.
  await store.appendTokenCounts("crash", [tokenCountRecord("after_1")]);
  expect((await new JsonlStore({ directory }).loadTokenCounts("crash")).filter((record) => record.key === "after_1")).toStrictEqual([tokenCountRecord("after_1")]);
  expect(await new JsonlStore({ directory }).loadOffloaded("crash", "after_0")).toStrictEqual(offloadedRecord("after_0"));
  const loaded = await store.load("crash");
  expect(loaded.warnings).toStrictEqual([]);
  expect(loaded.messages.at(-1)?.id).toBe("after-the-crashes");
  // No lock is left behind, nor the temporary files of processes killed while taking one.
  expect((await readdir(join(directory, ".locks"))).filter((name) => !name.endsWith(".tmp"))).toStrictEqual([]);
});
