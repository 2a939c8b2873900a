import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PluginOptionsError } from "@ctxpipe/core";
import { afterAll, expect, test } from "vitest";
import type { ConversationStore } from "../conversation-store.js";
import { describeStoreContract } from "../testing/index.js";
import { JsonlStore } from "./jsonl-store.js";

const directories: string[] = [];
const temporaryDirectory = async () => {
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-jsonl-"));
  directories.push(directory);
  return directory;
};
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

describeStoreContract("JsonlStore", {
  // A directory that does not exist yet: the store creates it on the first append.
  create: async () => new JsonlStore({ directory: join(await temporaryDirectory(), "logs") }),
  reopen: async (store: ConversationStore) => {
    await store.close();
    return new JsonlStore({ directory: (store as JsonlStore).directory });
  },
});

describeStoreContract("JsonlStore without fsync", {
  create: async () => new JsonlStore({ directory: await temporaryDirectory(), durability: "none" }),
  reopen: async (store: ConversationStore) => {
    await store.close();
    return new JsonlStore({ directory: (store as JsonlStore).directory, durability: "none" });
  },
});

test("the log is one header line, then one envelope per message or summary", async () => {
  const directory = await temporaryDirectory();
  const store = new JsonlStore({ directory });
  await store.append("Run 1", [{ id: "1", role: "user", content: "hi" }, { id: "2", role: "assistant", content: null }]);
  await store.appendSummaries("Run 1", { id: "s1", summary: "hello" });
  await store.close();
  expect((await readdir(directory)).sort()).toStrictEqual(["%52un%201.jsonl", ".locks", ".offloaded"]);
  expect(await readFile(join(directory, "%52un%201.jsonl"), "utf8")).toBe(
    [
      '{"log":{"format":"ctxpipe.conversation","version":1,"conversationId":"Run 1"}}',
      '{"message":{"id":"1","role":"user","content":"hi"}}',
      '{"message":{"id":"2","role":"assistant","content":null}}',
      '{"summary":{"id":"s1","summary":"hello"}}',
      "",
    ].join("\n"),
  );
  expect(await readdir(join(directory, ".locks"))).toStrictEqual([]);
});

test("offloaded text goes to .offloaded/<log file name>: a header line, then one envelope per record, each handle once", async () => {
  const directory = await temporaryDirectory();
  const store = new JsonlStore({ directory });
  const record = { handle: "ctx_0123456789abcdef", itemId: "call-1", text: "a\nb\u0000", createdAt: "2025-03-01T12:00:00.000Z" };
  await store.appendOffloaded("Run 1", [record]);
  await store.appendOffloaded("Run 1", [{ ...record, text: "other" }]);
  await store.close();
  expect(await readFile(join(directory, ".offloaded", "%52un%201.jsonl"), "utf8")).toBe(
    [
      '{"log":{"format":"ctxpipe.offloaded","version":1,"conversationId":"Run 1"}}',
      '{"offloaded":{"handle":"ctx_0123456789abcdef","itemId":"call-1","text":"a\\nb\\u0000","createdAt":"2025-03-01T12:00:00.000Z"}}',
      "",
    ].join("\n"),
  );
  // Offloaded text alone makes no conversation.
  expect(await new JsonlStore({ directory }).list()).toStrictEqual([]);
  expect(await readdir(join(directory, ".locks"))).toStrictEqual([]);
});

test("a long conversation id gets a hashed file name and comes back from the header", async () => {
  const directory = await temporaryDirectory();
  const store = new JsonlStore({ directory });
  const conversationId = "Ü".repeat(200);
  await store.append(conversationId, { id: "1", role: "user", content: "hi" });
  const [name] = (await readdir(directory)).filter((entry) => entry.endsWith(".jsonl"));
  expect(name).toMatch(/^~[0-9a-f]{64}\.jsonl$/);
  expect((await new JsonlStore({ directory }).list()).map((info) => info.conversationId)).toStrictEqual([conversationId]);
});

test.for([
  ["no directory", {}],
  ["an empty directory", { directory: "" }],
  ["an unknown durability", { directory: "x", durability: "sometimes" }],
  ["an unknown option", { directory: "x", fsync: true }],
])("options with %s are refused with PluginOptionsError", ([, options]) => {
  expect(() => new JsonlStore(options as never)).toThrow(PluginOptionsError);
});

test("appends after close are refused", async () => {
  const store = new JsonlStore({ directory: await temporaryDirectory() });
  await store.close();
  await expect(store.append("c", { id: "1", role: "user", content: "x" })).rejects.toMatchObject({ code: "STORE_CLOSED" });
});

test("onWritten is called once the messages are in the log, before the append resolves: a load from then on finds them", async () => {
  const directory = await temporaryDirectory();
  const store = new JsonlStore({ directory });
  const other = new JsonlStore({ directory });
  await store.append("c", { id: "m1", role: "user", content: "hi" });
  const steps: string[] = [];
  let loadedInOnWritten: Promise<ReadonlyArray<string>> | undefined;
  const appended = store
    .append("c", [{ id: "m2", role: "assistant", content: "hello" }], {
      onWritten: () => {
        steps.push("written");
        // Another store (another process, as far as the file goes) loads while the fsync runs.
        loadedInOnWritten = other.load("c").then((loaded) => loaded.messages.map((message) => message.id));
      },
    })
    .then(() => steps.push("resolved"));
  await appended;
  expect(steps).toEqual(["written", "resolved"]);
  expect(await loadedInOnWritten).toEqual(["m1", "m2"]);
});

test("appends given together share a write, and each one's onWritten is called; an invalid append never calls it", async () => {
  const store = new JsonlStore({ directory: await temporaryDirectory(), durability: "none" });
  const written: string[] = [];
  await Promise.all(["a", "b", "c"].map((id) => store.append("c", { id, role: "user", content: id }, { onWritten: () => written.push(id) })));
  expect(written).toEqual(["a", "b", "c"]);
  await expect(store.append("c", { id: "", role: "user", content: "x" }, { onWritten: () => written.push("invalid") })).rejects.toThrow(/id/);
  // A callback that throws is the caller's: the append is stored and resolves all the same.
  await store.append("c", { id: "d", role: "user", content: "d" }, { onWritten: () => { throw new Error("the caller's own bug"); } });
  expect(written).toEqual(["a", "b", "c"]);
  expect((await store.load("c")).messages.map((message) => message.id)).toEqual(["a", "b", "c", "d"]);
});

test("a load waits for this store's appends to be in the log, not for their fsync", async () => {
  const store = new JsonlStore({ directory: await temporaryDirectory() });
  await store.append("c", { id: "m1", role: "user", content: "hi" });
  const order: string[] = [];
  const appended = store.append("c", { id: "m2", role: "assistant", content: "hello" }).then(() => order.push("durable"));
  const loaded = store.load("c").then((conversation) => {
    order.push("loaded");
    return conversation.messages.map((message) => message.id);
  });
  expect(await loaded).toEqual(["m1", "m2"]);
  await appended;
  expect(order).toEqual(["loaded", "durable"]);
});
