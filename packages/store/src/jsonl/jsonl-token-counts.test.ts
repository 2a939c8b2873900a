// The JSON-lines store's token-count log (.token-counts/<log file name>): its format, and that it is
// read as a cache: a torn, edited or foreign line is skipped, never an error, and a torn tail is moved
// aside by the next append as the conversation log's is.
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { StoreWarning } from "../conversation-store.js";
import type { TokenCountRecord } from "../token-count-record.js";
import { JsonlStore } from "./jsonl-store.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-counts-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const HEADER = '{"log":{"format":"ctxpipe.token-counts","version":1,"conversationId":"Run 1"}}\n';
const countsPath = () => join(directory, ".token-counts", "%52un%201.jsonl");
const record = (key: string, tokens: number, encoding = "o200k_base") => ({ encoding, key, tokens });

test("the log is a header, then one line per append and encoding, leaving out pairs already stored", async () => {
  const store = new JsonlStore({ directory });
  await store.appendTokenCounts("Run 1", [record("a", 1), record("b", 2, "cl100k_base"), record("c", 3)]);
  await store.appendTokenCounts("Run 1", [record("a", 9), record("d", 4)]);
  await store.appendTokenCounts("Run 1", [record("a", 9)]);
  expect(await readFile(countsPath(), "utf8")).toBe(
    [
      HEADER,
      '{"counts":{"encoding":"o200k_base","keys":["a","c"],"tokens":[1,3]}}\n',
      '{"counts":{"encoding":"cl100k_base","keys":["b"],"tokens":[2]}}\n',
      '{"counts":{"encoding":"o200k_base","keys":["d"],"tokens":[4]}}\n',
    ].join(""),
  );
  expect(await store.loadTokenCounts("Run 1")).toStrictEqual([record("a", 1), record("c", 3), record("b", 2, "cl100k_base"), record("d", 4)]);
  // Counts never show in the conversation's own log or in list.
  expect(await store.list()).toStrictEqual([]);
});

test("loading counts of a conversation never written creates nothing", async () => {
  const store = new JsonlStore({ directory: join(directory, "not-yet") });
  expect(await store.loadTokenCounts("c")).toStrictEqual([]);
  expect(await readdir(directory)).toStrictEqual([]);
});

test("a store that keeps no counts has no .token-counts directory", async () => {
  const store = new JsonlStore({ directory });
  await store.append("c", { id: "1", role: "user", content: "hi" });
  expect((await readdir(directory)).sort()).toStrictEqual([".locks", ".offloaded", "c.jsonl"]);
});

test("a torn last line is skipped without a warning, and the next append moves it aside", async () => {
  const warnings: StoreWarning[] = [];
  const store = new JsonlStore({ directory, onWarning: (warning) => warnings.push(warning) });
  await store.appendTokenCounts("Run 1", [record("a", 1)]);
  const torn = '{"counts":{"encoding":"o200k_base","keys":["b"],"tok';
  await appendFile(countsPath(), torn);
  expect(await new JsonlStore({ directory }).loadTokenCounts("Run 1")).toStrictEqual([record("a", 1)]);
  expect(await store.loadTokenCounts("Run 1")).toStrictEqual([record("a", 1)]);

  await store.appendTokenCounts("Run 1", [record("b", 2)]);
  expect(await readFile(countsPath(), "utf8")).toBe(`${HEADER}{"counts":{"encoding":"o200k_base","keys":["a"],"tokens":[1]}}\n{"counts":{"encoding":"o200k_base","keys":["b"],"tokens":[2]}}\n`);
  expect(await readFile(`${countsPath()}.torn`, "utf8")).toBe(`${torn}\n`);
  expect(warnings).toStrictEqual([{ message: expect.stringContaining(`${countsPath()}.torn`), location: countsPath() }]);
  expect(await new JsonlStore({ directory }).loadTokenCounts("Run 1")).toStrictEqual([record("a", 1), record("b", 2)]);
});

test.for([
  ["not JSON", "{not json\n"],
  ["an empty line", "\n"],
  ["invalid UTF-8", Buffer.from([0xff, 0xfe, 0x0a])],
  ["a line of another kind", '{"message":{"id":"1","role":"user"}}\n'],
  ["keys and tokens of different lengths", '{"counts":{"encoding":"o200k_base","keys":["x","y"],"tokens":[1]}}\n'],
  ["an empty encoding", '{"counts":{"encoding":"","keys":["x"],"tokens":[1]}}\n'],
  ["counts that are not arrays", '{"counts":{"encoding":"o200k_base","keys":"x","tokens":1}}\n'],
] as const)("a line holding %s is skipped; the lines around it are read", async ([, bad]) => {
  await mkdir(join(directory, ".token-counts"), { recursive: true });
  await writeFile(countsPath(), HEADER);
  await appendFile(countsPath(), '{"counts":{"encoding":"o200k_base","keys":["a"],"tokens":[1]}}\n');
  await appendFile(countsPath(), bad);
  await appendFile(countsPath(), '{"counts":{"encoding":"o200k_base","keys":["b"],"tokens":[2]}}\n');
  expect(await new JsonlStore({ directory }).loadTokenCounts("Run 1")).toStrictEqual([record("a", 1), record("b", 2)]);
});

test("entries of a line that are not valid are skipped, the valid ones kept", async () => {
  await mkdir(join(directory, ".token-counts"), { recursive: true });
  await writeFile(countsPath(), `${HEADER}{"counts":{"encoding":"o200k_base","keys":["a","../x",7,"b","c"],"tokens":[1,2,3,-4,5]}}\n`);
  expect(await new JsonlStore({ directory }).loadTokenCounts("Run 1")).toStrictEqual([record("a", 1), record("c", 5)]);
});

test.for([
  ["another conversation", '{"log":{"format":"ctxpipe.token-counts","version":1,"conversationId":"other"}}\n'],
  ["a later version", '{"log":{"format":"ctxpipe.token-counts","version":2,"conversationId":"Run 1"}}\n'],
] as const)("a log whose header names %s gives no counts", async ([, header]) => {
  await mkdir(join(directory, ".token-counts"), { recursive: true });
  await writeFile(countsPath(), `${header}{"counts":{"encoding":"o200k_base","keys":["a"],"tokens":[1]}}\n`);
  const store = new JsonlStore({ directory });
  expect(await store.loadTokenCounts("Run 1")).toStrictEqual([]);
  await appendFile(countsPath(), '{"counts":{"encoding":"o200k_base","keys":["b"],"tokens":[2]}}\n');
  expect(await store.loadTokenCounts("Run 1")).toStrictEqual([]);
});

test("another store's appends are seen by a store that loaded before them; a log replaced by a new file is read again", async () => {
  const reader = new JsonlStore({ directory });
  const writer = new JsonlStore({ directory });
  await writer.appendTokenCounts("Run 1", [record("a", 1)]);
  expect(await reader.loadTokenCounts("Run 1")).toStrictEqual([record("a", 1)]);
  await writer.appendTokenCounts("Run 1", [record("b", 2)]);
  expect(await reader.loadTokenCounts("Run 1")).toStrictEqual([record("a", 1), record("b", 2)]);
  // A new file (new inode) at the same path: the cached records are dropped.
  await rm(countsPath());
  await writeFile(countsPath(), `${HEADER}{"counts":{"encoding":"o200k_base","keys":["c"],"tokens":[3]}}\n`);
  expect(await reader.loadTokenCounts("Run 1")).toStrictEqual([record("c", 3)]);
});

test("two loads at once read the same records once", async () => {
  const store = new JsonlStore({ directory });
  await store.appendTokenCounts("Run 1", [record("a", 1), record("b", 2)]);
  const fresh = new JsonlStore({ directory });
  const [first, second] = await Promise.all([fresh.loadTokenCounts("Run 1"), fresh.loadTokenCounts("Run 1")]);
  expect(first).toStrictEqual([record("a", 1), record("b", 2)]);
  expect(second).toStrictEqual(first);
});

test("a property: appends from two stores in any order keep the first count of each pair, and every load equals a fresh store's", async () => {
  const entry = fc.record({ encoding: fc.constantFrom("o200k_base", "cl100k_base"), key: fc.constantFrom("a", "b", "c", "d", "e"), tokens: fc.nat({ max: 1000 }) });
  const step = fc.oneof(
    fc.record({ kind: fc.constant("append" as const), by: fc.integer({ min: 0, max: 1 }), records: fc.array(entry, { maxLength: 4 }) }),
    fc.record({ kind: fc.constant("load" as const), by: fc.integer({ min: 0, max: 1 }) }),
  );
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      const conversationId = `property-${++run}`;
      const stores = [new JsonlStore({ directory }), new JsonlStore({ directory })];
      const first = new Map<string, TokenCountRecord>();
      const expected = () => [...first.values()].sort(byPair);
      for (const current of steps) {
        if (current.kind === "append") {
          await stores[current.by]!.appendTokenCounts(conversationId, current.records);
          for (const record of current.records) if (!first.has(`${record.encoding} ${record.key}`)) first.set(`${record.encoding} ${record.key}`, { ...record });
        } else {
          const loaded = [...(await stores[current.by]!.loadTokenCounts(conversationId))].sort(byPair);
          expect(loaded).toStrictEqual(expected());
          expect([...(await new JsonlStore({ directory }).loadTokenCounts(conversationId))].sort(byPair)).toStrictEqual(loaded);
        }
      }
      for (const store of stores) expect([...(await store.loadTokenCounts(conversationId))].sort(byPair)).toStrictEqual(expected());
    }),
    { numRuns: 60 },
  );
}, 60_000);

function byPair(a: TokenCountRecord, b: TokenCountRecord): number {
  const left = `${a.encoding} ${a.key}`;
  const right = `${b.encoding} ${b.key}`;
  return left < right ? -1 : left > right ? 1 : 0;
}
