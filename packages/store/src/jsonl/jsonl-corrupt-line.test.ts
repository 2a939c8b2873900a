import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { StoreCorruptError } from "../errors/store-corrupt-error.js";
import { JsonlStore } from "./jsonl-store.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-corrupt-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const HEADER = '{"log":{"format":"ctxpipe.conversation","version":1,"conversationId":"c"}}\n';
const line = (id: string) => `{"message":{"id":"${id}","role":"user","content":"text ${id}"}}\n`;

test.for([
  ["a line that is not JSON", `${HEADER + line("1")}{"message":{"id":"2",\n${line("3")}`, 3, /not valid JSON/],
  ["a foreign line (valid JSON, wrong shape)", `${HEADER + line("1")}{"role":"user","content":"hand-written"}\n${line("3")}`, 3, /not a ctxpipe log record/],
  ["a message without a role", `${HEADER + line("1") + line("2")}{"message":{"id":"3"}}\n`, 4, /not a valid message: role/],
  ["a JSON array", `${HEADER}[1,2]\n${line("2")}`, 2, /not a JSON object/],
  ["an empty line", `${HEADER + line("1")}\n${line("3")}`, 3, /empty line/],
  ["invalid UTF-8", Buffer.concat([Buffer.from(HEADER + line("1")), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), Buffer.from(line("3"))]), 3, /UTF-8/],
  ["no header", line("1") + line("2"), 1, /not a ctxpipe conversation log header/],
  ["a header from a future version", `{"log":{"format":"ctxpipe.conversation","version":2,"conversationId":"c"}}\n${line("1")}`, 1, /format version 2/],
  ["the header of another conversation", `{"log":{"format":"ctxpipe.conversation","version":1,"conversationId":"d"}}\n${line("1")}`, 1, /belongs to conversation "d"/],
] as const)("%s gives StoreCorruptError naming the file and line, and the file is left as it was", async ([, contents, lineNumber, reason]) => {
  const logPath = join(directory, "c.jsonl");
  await writeFile(logPath, contents);
  const store = new JsonlStore({ directory });
  const error = (await store.load("c").catch((caught: unknown) => caught)) as StoreCorruptError;
  expect(error).toBeInstanceOf(StoreCorruptError);
  expect({ code: error.code, location: error.location, line: error.line }).toStrictEqual({ code: "STORE_CORRUPT", location: logPath, line: lineNumber });
  expect(error.reason).toMatch(reason);
  expect(error.message).toContain(`${logPath}, line ${lineNumber}`);
  await expect(store.list()).rejects.toBeInstanceOf(StoreCorruptError);
  expect(await readFile(logPath)).toStrictEqual(Buffer.from(contents));
});

test("a corrupt line appended after a successful load is reported with its line number", async () => {
  const logPath = join(directory, "c.jsonl");
  await writeFile(logPath, HEADER + line("1"));
  const store = new JsonlStore({ directory });
  expect((await store.load("c")).messages).toHaveLength(1);
  await writeFile(logPath, `${HEADER + line("1")}garbage\n`);
  await expect(store.load("c")).rejects.toMatchObject({ location: logPath, line: 3 });
  // A failed load leaves the cache as it was: fixing the file makes the next load succeed.
  await writeFile(logPath, HEADER + line("1") + line("2"));
  expect((await store.load("c")).messages.map((message) => message.id)).toStrictEqual(["1", "2"]);
});
