// The inter-process lock: a live owner is waited for (and never overridden); the lock of a dead
// process is taken over.
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { StoreWarning } from "../conversation-store.js";
import { spawnAppendChild } from "./__fixtures__/spawn-append-child.js";
import { JsonlStore } from "./jsonl-store.js";
import { StoreLockTimeoutError } from "./store-lock-timeout-error.js";

let directory: string;
let lockPath: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-lock-"));
  lockPath = join(directory, ".locks", "c.jsonl.lock");
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const message = (id: string) => ({ id, role: "user" as const, content: id });

test("a lock held by a live process is respected; once that process is killed, its lock is taken over", { timeout: 60_000 }, async () => {
  const holder = spawnAppendChild(["hold-lock", lockPath]);
  await holder.waitForLine((line) => line === "locked");
  const warnings: StoreWarning[] = [];
  const store = new JsonlStore({ directory, lockTimeoutMs: 300, onWarning: (warning) => warnings.push(warning) });

  const refused = await store.append("c", message("1")).catch((caught: unknown) => caught);
  expect(refused).toBeInstanceOf(StoreLockTimeoutError);
  expect(refused).toMatchObject({ code: "STORE_LOCK_TIMEOUT", lockPath, ownerPid: holder.process.pid });
  expect((await store.load("c")).messages).toStrictEqual([]);

  holder.process.kill("SIGKILL");
  await holder.exited;
  await store.append("c", message("2"));
  expect((await store.load("c")).messages.map((entry) => entry.id)).toStrictEqual(["2"]);
  expect(warnings).toStrictEqual([{ message: expect.stringContaining(`process ${holder.process.pid}`), location: lockPath }]);
  expect(await readdir(join(directory, ".locks"))).toStrictEqual([]);
});

test.for([
  ["a dead pid", "999999999 0123456789ab cafe\n"],
  ["an empty file (a crash before the lock was written)", ""],
  ["this pid with another process's token (a restarted container)", `${process.pid} 000000000000 cafe\n`],
] as const)("a lock file naming %s is taken over", async ([, contents]) => {
  await mkdir(join(directory, ".locks"), { recursive: true });
  await writeFile(lockPath, contents);
  // What a process killed while taking the lock leaves: removed along with the dead lock.
  await writeFile(`${lockPath}.999999999-0abc.tmp`, "999999999 0123456789ab 0abc\n");
  const warnings: StoreWarning[] = [];
  const store = new JsonlStore({ directory, lockTimeoutMs: 2_000, onWarning: (warning) => warnings.push(warning) });
  await store.append("c", message("1"));
  expect((await store.load("c")).messages.map((entry) => entry.id)).toStrictEqual(["1"]);
  expect(warnings).toHaveLength(1);
  expect(await readdir(join(directory, ".locks"))).toStrictEqual([]);
});

test("the token-count log's lock left by a dead process is taken over by the next count append", async () => {
  const countsLock = join(directory, ".locks", "c.jsonl.token-counts.lock");
  await mkdir(join(directory, ".locks"), { recursive: true });
  await writeFile(countsLock, "999999999 0123456789ab cafe\n");
  const warnings: StoreWarning[] = [];
  const store = new JsonlStore({ directory, lockTimeoutMs: 2_000, onWarning: (warning) => warnings.push(warning) });
  await store.appendTokenCounts("c", [{ encoding: "o200k_base", key: "k1", tokens: 3 }]);
  expect(await new JsonlStore({ directory }).loadTokenCounts("c")).toStrictEqual([{ encoding: "o200k_base", key: "k1", tokens: 3 }]);
  expect(warnings).toStrictEqual([{ message: expect.stringContaining("process 999999999"), location: countsLock }]);
  expect(await readdir(join(directory, ".locks"))).toStrictEqual([]);
});

test("a process's first write in a directory removes what dead processes left beside any lock there, with no lock to take over", async () => {
  await mkdir(join(directory, ".locks"), { recursive: true });
  // A takeover killed after renaming a dead lock aside, and a process killed while taking a lock, for
  // other conversations' locks; and a live process's temporary file, which stays.
  const dead = ["other.jsonl.lock.999999999-0abc.stale", "other.jsonl.offloaded.lock.999999998-1def.tmp"];
  const live = `other.jsonl.lock.${process.pid}-2abc.tmp`;
  for (const name of [...dead, live]) await writeFile(join(directory, ".locks", name), "999999999 0123456789ab 0abc\n");
  const warnings: StoreWarning[] = [];
  const store = new JsonlStore({ directory, onWarning: (warning) => warnings.push(warning) });
  await store.append("c", message("1"));
  expect(await readdir(join(directory, ".locks"))).toStrictEqual([live]);
  expect(warnings).toStrictEqual([]);
});
