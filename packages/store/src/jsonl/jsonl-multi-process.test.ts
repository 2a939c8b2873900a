// Several processes append to one conversation at the same time: the inter-process lock and O_APPEND
// must keep every line whole and every message present once, in each process's own order.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { spawnAppendChild } from "./__fixtures__/spawn-append-child.js";
import { JsonlStore } from "./jsonl-store.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-processes-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

test("four processes appending 200 messages each to one conversation neither interleave nor lose lines", { timeout: 120_000 }, async () => {
  const prefixes = ["p0", "p1", "p2", "p3"];
  const children = prefixes.map((prefix) => spawnAppendChild(["append", directory, "shared", prefix, "200"]));
  expect(await Promise.all(children.map((child) => child.exited))).toStrictEqual([0, 0, 0, 0]);
  expect(children.map((child) => child.lines)).toStrictEqual(prefixes.map(() => ["done"]));

  // A fresh store reads the file from scratch: every line must parse (a torn or interleaved line
  // would be a StoreCorruptError or a warning).
  const loaded = await new JsonlStore({ directory }).load("shared");
  expect(loaded.warnings).toStrictEqual([]);
  const ids = loaded.messages.map((message) => message.id);
  expect(ids).toHaveLength(800);
  expect(new Set(ids).size).toBe(800);
  for (const prefix of prefixes) {
    const own = ids.filter((id) => id.startsWith(`${prefix}-`));
    expect(own).toStrictEqual(Array.from({ length: 200 }, (_, index) => `${prefix}-${index}`));
  }
});
