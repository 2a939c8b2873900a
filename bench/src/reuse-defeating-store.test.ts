import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ConversationStore, JsonlStore, type StoredMessage } from "@ctxpipe/store";
import { afterEach, expect, test } from "vitest";
import { reuseDefeatingStore } from "./reuse-defeating-store.js";

const messages: StoredMessage[] = [
  { id: "m0", role: "user", content: "hello", createdAt: "2026-01-01T00:00:00.000Z" },
  { id: "m1", role: "assistant", content: "hi", createdAt: "2026-01-01T00:00:01.000Z" },
];

let directory: string | undefined;
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

async function storeWithConversation(): Promise<ConversationStore> {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-bench-defeat-"));
  const store = new JsonlStore({ directory });
  await store.append("c", messages);
  return store;
}

test("every load returns equal messages as new objects, and the store's own load is untouched", async () => {
  const store = await storeWithConversation();
  const defeated = reuseDefeatingStore(store);
  const [first, second, own] = [await defeated.load("c"), await defeated.load("c"), await store.load("c")];
  expect(first.messages).toEqual(own.messages);
  expect(first.messages.map((message, index) => message === own.messages[index] || message === second.messages[index])).toEqual([false, false]);
  await store.close();
});

test("with copyMessages false, the store's objects pass through", async () => {
  const store = await storeWithConversation();
  const defeated = reuseDefeatingStore(store, { copyMessages: false });
  const [loaded, own] = [await defeated.load("c"), await store.load("c")];
  expect(loaded.messages.every((message, index) => message === own.messages[index])).toBe(true);
  await store.close();
});

test("token count methods are hidden unless asked for; the other methods are the store's, bound to it", async () => {
  const store = await storeWithConversation();
  // A store that keeps counts, whether or not this checkout's JsonlStore has the methods yet.
  const counting: ConversationStore = {
    append: (id, added) => store.append(id, added),
    appendSummaries: (id, records) => store.appendSummaries(id, records),
    load: (id) => store.load(id),
    list: () => store.list(),
    close: () => store.close(),
    appendTokenCounts: async () => {},
    loadTokenCounts: async () => [],
  };
  const hidden = reuseDefeatingStore(counting);
  const kept = reuseDefeatingStore(counting, { hideTokenCounts: false });
  expect({
    hidden: [hidden.appendTokenCounts, hidden.loadTokenCounts, "loadTokenCounts" in hidden],
    kept: [typeof kept.appendTokenCounts, typeof kept.loadTokenCounts, "loadTokenCounts" in kept],
  }).toEqual({ hidden: [undefined, undefined, false], kept: ["function", "function", true] });
  await hidden.append("c", { id: "m2", role: "user", content: "again", createdAt: "2026-01-01T00:00:02.000Z" });
  expect((await hidden.list()).map((info) => info.messageCount)).toEqual([3]);
  await store.close();
});
