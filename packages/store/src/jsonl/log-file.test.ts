// LogFile makes small reads and writes synchronously and larger ones through the thread pool: both
// paths store and read the same bytes, and a store's load reads a large new part of a log it had cached.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { JsonlStore } from "./jsonl-store.js";
import { LogFile, SMALL_BYTES } from "./log-file.js";
import { readFully } from "./read-fully.js";

const directories: string[] = [];
const temporaryDirectory = async () => {
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-log-file-"));
  directories.push(directory);
  return directory;
};
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

const bytes = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, index) => (index * 31 + seed) % 251));

test.each([
  ["small (synchronous)", 1000],
  ["at the limit", SMALL_BYTES],
  ["large (thread pool)", SMALL_BYTES + 1],
  ["several megabytes", 3 * SMALL_BYTES + 7],
])("appends and reads back %s", async (_, length) => {
  const path = join(await temporaryDirectory(), "log");
  await writeFile(path, "head\n");
  const data = bytes(length, length % 7);
  const file = LogFile.open(path, "a+");
  try {
    expect(await file.append(data)).toBe(data.length);
    expect(file.stat().size).toBe(5 + length);
    await file.sync();
    const back = Buffer.alloc(length);
    expect(await readFully(file, back, 5)).toBe(length);
    expect(back.equals(data)).toBe(true);
    file.truncate(5);
  } finally {
    file.close();
  }
  expect(await readFile(path, "utf8")).toBe("head\n");
});

test("opening a missing log for reading throws ENOENT, as fs does", () => {
  expect(() => LogFile.open(join(tmpdir(), "ctxpipe-no-such-directory", "log"), "r")).toThrow(expect.objectContaining({ code: "ENOENT" }));
});

test("a load after a large append reads the new part whole, from where the cached load stopped", async () => {
  const directory = await temporaryDirectory();
  const writer = new JsonlStore({ directory, durability: "none" });
  const reader = new JsonlStore({ directory });
  await writer.append("c", { id: "first", role: "user", content: "hi" });
  expect((await reader.load("c")).messages.map((message) => message.id)).toEqual(["first"]);
  // More than one synchronous read's worth of new lines, one of them longer than that on its own.
  const big = Array.from({ length: 40 }, (_, index) => ({ id: `m${index}`, role: "tool" as const, tool_call_id: `call_${index}`, content: "x".repeat(index === 7 ? SMALL_BYTES + 10 : 20_000) }));
  await writer.append("c", big);
  const loaded = await reader.load("c");
  expect(loaded.messages.map((message) => message.id)).toEqual(["first", ...big.map((message) => message.id)]);
  expect(loaded.messages[8]!.content).toBe(big[7]!.content);
  expect(loaded.warnings).toEqual([]);
});
