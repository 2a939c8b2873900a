// The reader checks a read's UTF-8 once and decodes each line on its own: a bad byte is still reported
// with its own line, whatever the other lines hold, in a first read or an incremental one.
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { StoreCorruptError } from "../errors/store-corrupt-error.js";
import { JsonlStore } from "./jsonl-store.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-utf8-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const HEADER = '{"log":{"format":"ctxpipe.conversation","version":1,"conversationId":"c"}}\n';
const chinese = (id: string) => `{"message":{"id":"${id}","role":"user","content":"构建在 CI 上失败 ${id} 😀"}}\n`;
/** A message line whose content holds `bad` between two Chinese characters. */
const withBytes = (id: string, bad: ReadonlyArray<number>) =>
  Buffer.concat([Buffer.from(`{"message":{"id":"${id}","role":"user","content":"构`), Buffer.from(bad), Buffer.from('建"}}\n')]);

test.for([
  ["a lone continuation byte", [0x80]],
  ["a byte that never starts a character", [0xff]],
  ["an overlong encoding of '/'", [0xc0, 0xaf]],
  ["an encoded surrogate", [0xed, 0xa0, 0x80]],
  ["a character cut short", [0xe6, 0x9e]],
  ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
] as const)("%s in line 4 of a Chinese log names line 4, in a first read and in an incremental one", async ([, bad]) => {
  const logPath = join(directory, "c.jsonl");
  const good = HEADER + chinese("1") + chinese("2");
  const contents = Buffer.concat([Buffer.from(good), withBytes("3", bad), Buffer.from(chinese("4") + chinese("5"))]);
  await writeFile(logPath, contents);
  const first = (await new JsonlStore({ directory }).load("c").catch((caught: unknown) => caught)) as StoreCorruptError;
  expect(first).toBeInstanceOf(StoreCorruptError);
  expect({ location: first.location, line: first.line, reason: first.reason }).toStrictEqual({ location: logPath, line: 4, reason: "not valid UTF-8" });

  // The same bytes arriving after a load that read lines 1–3.
  await writeFile(logPath, good);
  const store = new JsonlStore({ directory });
  expect((await store.load("c")).messages.map((message) => message.id)).toStrictEqual(["1", "2"]);
  await appendFile(logPath, contents.subarray(Buffer.byteLength(good)));
  const incremental = (await store.load("c").catch((caught: unknown) => caught)) as StoreCorruptError;
  expect({ location: incremental.location, line: incremental.line, reason: incremental.reason }).toStrictEqual({ location: logPath, line: 4, reason: "not valid UTF-8" });
});

test("a bad byte in a line past the first megabyte read names that line", async () => {
  const logPath = join(directory, "c.jsonl");
  // 700 lines of about 3 KB: the bad one, line 600, is read in a later chunk than the header.
  const filler = "构建在 CI 上失败".repeat(130);
  const lines = Array.from({ length: 700 }, (_, index) => index === 598 ? withBytes("599", [0xff]) : Buffer.from(`{"message":{"id":"${index + 1}","role":"user","content":"${filler}"}}\n`));
  await writeFile(logPath, Buffer.concat([Buffer.from(HEADER), ...lines]));
  const error = (await new JsonlStore({ directory }).load("c").catch((caught: unknown) => caught)) as StoreCorruptError;
  expect({ location: error.location, line: error.line, reason: error.reason }).toStrictEqual({ location: logPath, line: 600, reason: "not valid UTF-8" });
});

test("Chinese, emoji and escaped text load exactly as appended, and ASCII lines next to them too", async () => {
  const messages = [
    { id: "1", role: "user", content: "plain ASCII" },
    { id: "2", role: "assistant", content: "构建在 CI 上失败，但本地没问题 😀 \u2028 \"quoted\" \\ \u0000" },
    { id: "3", role: "user", content: "é à ü ñ — Latin-1 and beyond" },
  ] as const;
  await new JsonlStore({ directory, durability: "none" }).append("c", messages);
  expect((await new JsonlStore({ directory }).load("c")).messages).toStrictEqual(messages);
});

test("a byte order mark before the header is ignored, as before", async () => {
  await writeFile(join(directory, "c.jsonl"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(HEADER + chinese("1"))]));
  const loaded = await new JsonlStore({ directory }).load("c");
  expect(loaded.messages).toStrictEqual([{ id: "1", role: "user", content: "构建在 CI 上失败 1 😀" }]);
});

test("loaded messages are frozen all the way down", async () => {
  const message = { id: "1", role: "assistant", content: [{ type: "text", text: "构建" }], tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: "{}" } }] };
  await new JsonlStore({ directory, durability: "none" }).append("c", message as never);
  const [loaded] = (await new JsonlStore({ directory }).load("c")).messages as unknown as [typeof message];
  expect([loaded, loaded.content, loaded.content[0], loaded.tool_calls, loaded.tool_calls[0], loaded.tool_calls[0]?.function].map(Object.isFrozen)).toStrictEqual([true, true, true, true, true, true]);
});
