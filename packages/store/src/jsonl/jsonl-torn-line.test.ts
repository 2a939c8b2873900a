import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { StoreWarning } from "../conversation-store.js";
import { JsonlStore } from "./jsonl-store.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-torn-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const HEADER = '{"log":{"format":"ctxpipe.conversation","version":1,"conversationId":"c"}}\n';
const line = (id: string) => `{"message":{"id":"${id}","role":"user","content":"text ${id}"}}\n`;

test("a torn last line is skipped with a warning, and the next append moves it to the sidecar", async () => {
  const logPath = join(directory, "c.jsonl");
  const torn = '{"message":{"id":"3","role":"us';
  await writeFile(logPath, HEADER + line("1") + line("2") + torn);
  const warnings: StoreWarning[] = [];
  const store = new JsonlStore({ directory, onWarning: (warning) => warnings.push(warning) });

  const loaded = await store.load("c");
  expect(loaded.messages.map((message) => message.id)).toStrictEqual(["1", "2"]);
  expect(loaded.warnings).toStrictEqual([{ message: expect.stringContaining("torn last line"), location: logPath, line: 4 }]);
  // Loading never repairs: the bytes are still there.
  expect(await readFile(logPath, "utf8")).toBe(HEADER + line("1") + line("2") + torn);
  expect(warnings).toStrictEqual([]);

  await store.append("c", { id: "4", role: "user", content: "text 4" });
  expect(await readFile(logPath, "utf8")).toBe(HEADER + line("1") + line("2") + line("4"));
  expect(await readFile(`${logPath}.torn`, "utf8")).toBe(`${torn}\n`);
  expect(warnings).toStrictEqual([{ message: expect.stringContaining(`${logPath}.torn`), location: logPath }]);
  const reloaded = await store.load("c");
  expect(reloaded.messages.map((message) => message.id)).toStrictEqual(["1", "2", "4"]);
  expect(reloaded.warnings).toStrictEqual([]);
});

test("a log holding only a torn header loads empty, and the next append starts it again", async () => {
  const logPath = join(directory, "c.jsonl");
  await writeFile(logPath, HEADER.slice(0, 20));
  const store = new JsonlStore({ directory });
  const loaded = await store.load("c");
  expect(loaded.messages).toStrictEqual([]);
  expect(loaded.warnings).toHaveLength(1);
  expect(await store.list()).toStrictEqual([]);
  await store.append("c", { id: "1", role: "user", content: "text 1" });
  expect(await readFile(logPath, "utf8")).toBe(HEADER + line("1"));
  expect(await readFile(`${logPath}.torn`, "utf8")).toBe(`${HEADER.slice(0, 20)}\n`);
});

test("a torn line larger than the scan window is moved aside whole", async () => {
  const logPath = join(directory, "c.jsonl");
  const torn = `{"message":{"id":"big","role":"user","content":"${"x".repeat(200_000)}`;
  await writeFile(logPath, HEADER + line("1") + torn);
  const store = new JsonlStore({ directory });
  await store.append("c", { id: "2", role: "user", content: "text 2" });
  expect(await readFile(logPath, "utf8")).toBe(HEADER + line("1") + line("2"));
  expect(await readFile(`${logPath}.torn`, "utf8")).toBe(`${torn}\n`);
});

test("lines appended by another writer after a load are read incrementally, and a replaced file is read again", async () => {
  const logPath = join(directory, "c.jsonl");
  const store = new JsonlStore({ directory });
  await store.append("c", [{ id: "1", role: "user", content: "text 1" }]);
  expect((await store.load("c")).messages.map((message) => message.id)).toStrictEqual(["1"]);
  await appendFile(logPath, line("2"));
  expect((await store.load("c")).messages.map((message) => message.id)).toStrictEqual(["1", "2"]);
  // Same size, different content and inode: the cache must not be trusted.
  await writeFile(`${logPath}.new`, HEADER + line("8") + line("9"));
  const { rename } = await import("node:fs/promises");
  await rename(`${logPath}.new`, logPath);
  expect((await store.load("c")).messages.map((message) => message.id)).toStrictEqual(["8", "9"]);
  // Shrunk in place: read again from the start.
  await writeFile(logPath, HEADER + line("7"));
  expect((await store.load("c")).messages.map((message) => message.id)).toStrictEqual(["7"]);
});

test("a torn last line of the offload log is skipped, and the next append moves it aside", async () => {
  const offloadPath = join(directory, ".offloaded", "c.jsonl");
  const record = (handle: string) => ({ handle, itemId: "call", text: `text of ${handle}`, createdAt: "2025-03-01T12:00:00.000Z" });
  const store = new JsonlStore({ directory });
  await store.appendOffloaded("c", [record("ctx_1")]);
  const torn = '{"offloaded":{"handle":"ctx_2","itemId":"call","text":"half of';
  await appendFile(offloadPath, torn);
  const fresh = new JsonlStore({ directory });
  expect(await fresh.listOffloaded("c")).toStrictEqual([{ handle: "ctx_1", itemId: "call", chars: 13, createdAt: "2025-03-01T12:00:00.000Z" }]);
  expect(await fresh.loadOffloaded("c", "ctx_2")).toBeUndefined();
  await fresh.appendOffloaded("c", [record("ctx_2")]);
  expect(await readFile(`${offloadPath}.torn`, "utf8")).toBe(`${torn}\n`);
  const reopened = new JsonlStore({ directory });
  expect(await reopened.loadOffloaded("c", "ctx_2")).toStrictEqual(record("ctx_2"));
  expect((await reopened.listOffloaded("c")).map((info) => info.handle)).toStrictEqual(["ctx_1", "ctx_2"]);
});
