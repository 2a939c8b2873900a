import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonlStore, type StoredMessage } from "@ctxpipe/store";
import { afterEach, expect, test } from "vitest";
import { storeReloadBenchmark } from "./store-reload-benchmark.js";

const message = (id: string): StoredMessage => ({ id, role: "user", content: `text of ${id}`, createdAt: "2026-01-01T00:00:00.000Z" });

let directory: string | undefined;
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

async function storeWith(count: number) {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-bench-reload-"));
  const store = new JsonlStore({ directory });
  await store.append(
    "c",
    Array.from({ length: count }, (_, index) => message(`m${index}`)),
  );
  return store;
}

test("kept: each reload hands back the earlier messages as the same objects (JsonlStore's reader), rows uncounted", async () => {
  const store = await storeWith(10);
  const figures = await storeReloadBenchmark({ store, conversationId: "c", runs: 3, message: (run) => message(`new-${run}`) });
  expect({ ...figures, reload: figures.reload.runs }).toEqual({ reload: 3, messages: 13, rowsRead: undefined, sameObjects: 1 });
  await store.close();
});

test("a new store object per reload shares no objects with the previous load; rows read are counted around each load", async () => {
  const store = await storeWith(10);
  let rows = 0;
  // A store that says how many rows its loads read: every message of the conversation.
  const openStore = () => {
    const reader = new JsonlStore({ directory: directory! });
    reader.load = async (id) => {
      const loaded = await JsonlStore.prototype.load.call(reader, id);
      rows += loaded.messages.length;
      return loaded;
    };
    return reader;
  };
  const figures = await storeReloadBenchmark({ store, openStore, conversationId: "c", runs: 2, message: (run) => message(`new-${run}`), rowsRead: () => rows });
  expect({ ...figures, reload: figures.reload.runs }).toEqual({ reload: 2, messages: 12, rowsRead: 11.5, sameObjects: 0 });
  await store.close();
});

test("a store that loses the appended message fails the row instead of printing a figure", async () => {
  const store = await storeWith(3);
  const forgetful = { ...store, append: async () => {}, load: (id: string) => store.load(id), close: () => store.close() };
  await expect(storeReloadBenchmark({ store: forgetful as unknown as JsonlStore, conversationId: "c", runs: 1, message: () => message("lost") })).rejects.toThrow(
    "reload 0 returned 3 messages, expected 4",
  );
  await store.close();
});
