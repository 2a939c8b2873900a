// The contract every ConversationStore passes: the JSON-lines store, the PostgreSQL store, and any
// third-party store whose tests call describeStoreContract. Storage-agnostic: it talks to the store
// only through the interface.
import { afterAll, afterEach, describe, expect, test } from "vitest";
import type { ConversationStore } from "../conversation-store.js";
import { StoreInputError } from "../errors/store-input-error.js";
import type { OffloadedRecord } from "../offloaded-record.js";
import type { StoredMessage, StoredSummaryRecord } from "../stored-message.js";
import { type OffloadingStore, supportsOffloading } from "../supports-offloading.js";
import { supportsTokenCounts, type TokenCountingStore } from "../supports-token-counts.js";
import type { TokenCountRecord } from "../token-count-record.js";
import { exampleStoredMessages } from "./example-stored-messages.js";

export interface StoreContractSubject {
  /** A new store with no conversations. Called once per test. */
  create(): Promise<ConversationStore>;
  /** Closes `store` and opens a new store on the same data, as a restarted process would. */
  reopen(store: ConversationStore): Promise<ConversationStore>;
  /** Called once after every contract test ran (remove directories, drop databases). */
  cleanup?(): Promise<void>;
  /**
   * Whether the store implements appendOffloaded, loadOffloaded and listOffloaded (default true): the
   * offload tests run only then.
   */
  readonly offloading?: boolean;
  /** Whether the store implements appendTokenCounts and loadTokenCounts (default true): the token-count tests run only then. */
  readonly tokenCounts?: boolean;
}

const message = (id: string, extra: Record<string, unknown> = {}): StoredMessage => ({ id, role: "user", content: `text of ${id}`, ...extra });
const offloaded = (handle: string, text: string, itemId = "tool-1"): OffloadedRecord => ({ handle, itemId, text, createdAt: "2025-03-01T12:00:00.000Z" });
const count = (key: string, tokens: number, encoding = "o200k_base"): TokenCountRecord => ({ encoding, key, tokens });
/** loadTokenCounts promises no order. */
const sortedCounts = (records: ReadonlyArray<TokenCountRecord>) =>
  [...records].sort((a, b) => (a.encoding + a.key < b.encoding + b.key ? -1 : a.encoding + a.key > b.encoding + b.key ? 1 : 0));
const ids = (messages: ReadonlyArray<{ id: string }>) => messages.map((entry) => entry.id);
const summary = (id: string, coveredIds: string[]): StoredSummaryRecord => ({
  id,
  summary: `summary ${id}`,
  coveredIds,
  startId: coveredIds[0],
  sourceTokenCount: 120,
  createdAt: "2025-03-01T11:00:00.000Z",
});

/** What StoreInputError.issues should hold for one bad message at `index` (beside a good one). */
interface InvalidCase {
  readonly name: string;
  readonly bad: unknown;
  readonly issue: { index: number; id?: string; field: string };
}

function circular(): unknown {
  const value: Record<string, unknown> = { id: "bad", role: "user", content: "x" };
  value.self = { back: value };
  return value;
}

const INVALID_MESSAGES: ReadonlyArray<InvalidCase> = [
  { name: "not an object", bad: "hello", issue: { index: 1, field: "" } },
  { name: "null", bad: null, issue: { index: 1, field: "" } },
  { name: "an array", bad: [], issue: { index: 1, field: "" } },
  { name: "a class instance", bad: new (class Message { id = "bad"; role = "user"; })(), issue: { index: 1, id: "bad", field: "" } },
  { name: "missing id", bad: { role: "user", content: "x" }, issue: { index: 1, field: "id" } },
  { name: "empty id", bad: { id: "", role: "user", content: "x" }, issue: { index: 1, id: "", field: "id" } },
  { name: "numeric id", bad: { id: 7, role: "user", content: "x" }, issue: { index: 1, field: "id" } },
  { name: "unknown role", bad: { id: "bad", role: "robot", content: "x" }, issue: { index: 1, id: "bad", field: "role" } },
  { name: "missing role", bad: { id: "bad", content: "x" }, issue: { index: 1, id: "bad", field: "role" } },
  { name: "createdAt not a string", bad: { id: "bad", role: "user", createdAt: 1700000000000 }, issue: { index: 1, id: "bad", field: "createdAt" } },
  { name: "createdAt a Date", bad: { id: "bad", role: "user", createdAt: new Date(0) }, issue: { index: 1, id: "bad", field: "createdAt" } },
  { name: "content a number", bad: { id: "bad", role: "user", content: 5 }, issue: { index: 1, id: "bad", field: "content" } },
  { name: "a function", bad: { id: "bad", role: "user", content: "x", callback: () => 1 }, issue: { index: 1, id: "bad", field: "callback" } },
  { name: "a bigint", bad: { id: "bad", role: "user", content: "x", meta: { size: 10n } }, issue: { index: 1, id: "bad", field: "meta.size" } },
  { name: "undefined inside an array", bad: { id: "bad", role: "user", content: ["a", undefined] }, issue: { index: 1, id: "bad", field: "content.1" } },
  { name: "NaN", bad: { id: "bad", role: "user", content: "x", score: Number.NaN }, issue: { index: 1, id: "bad", field: "score" } },
  { name: "Infinity", bad: { id: "bad", role: "tool", content: "x", tool_call_id: "c", duration: Number.POSITIVE_INFINITY }, issue: { index: 1, id: "bad", field: "duration" } },
  { name: "a Map", bad: { id: "bad", role: "user", content: "x", meta: new Map([["a", 1]]) }, issue: { index: 1, id: "bad", field: "meta" } },
  { name: "a cycle", bad: circular(), issue: { index: 1, id: "bad", field: "self.back" } },
  { name: "a duplicate id in the batch", bad: { id: "good", role: "user", content: "again" }, issue: { index: 1, id: "good", field: "id" } },
];

const INVALID_CONVERSATION_IDS: ReadonlyArray<readonly [string, unknown]> = [
  ["empty", ""],
  ["longer than 200 characters", "c".repeat(201)],
  ["containing NUL", "a\u0000b"],
  ["not a string", 42],
];

/** Conversation ids a store must give back from list() exactly as they were given. */
const AWKWARD_CONVERSATION_IDS = ["run-42", "Run-42", "a/b\\c", "..", ".hidden", "with space", "百分之%20", "emoji 😀", "x".repeat(200), "é".repeat(200)];

export function describeStoreContract(name: string, subject: StoreContractSubject): void {
  describe(`${name} (ConversationStore contract)`, () => {
    let open: ConversationStore[] = [];
    const create = async () => {
      const store = await subject.create();
      open.push(store);
      return store;
    };
    const reopen = async (store: ConversationStore) => {
      const reopened = await subject.reopen(store);
      open.push(reopened);
      return reopened;
    };

    afterEach(async () => {
      await Promise.all(open.map((store) => store.close().catch(() => undefined)));
      open = [];
    });
    afterAll(async () => {
      await subject.cleanup?.();
    });

    test("stored messages of every shape round-trip exactly, unknown fields included", async () => {
      const store = await create();
      const messages = exampleStoredMessages("example");
      for (const entry of messages) await store.append("chat-1", entry);
      const loaded = await store.load("chat-1");
      expect(loaded.conversationId).toBe("chat-1");
      expect(loaded.messages).toStrictEqual(exampleStoredMessages("example"));
      expect(loaded.summaries).toStrictEqual([]);
      expect(loaded.warnings).toStrictEqual([]);
    });

    test("order is kept across single and batched appends", async () => {
      const store = await create();
      await store.append("c", message("1"));
      await store.append("c", [message("2"), message("3"), message("4")]);
      await store.append("c", message("5"));
      await store.append("c", []);
      await store.append("c", [message("6")]);
      expect(ids((await store.load("c")).messages)).toStrictEqual(["1", "2", "3", "4", "5", "6"]);
    });

    test("concurrent appends from one process are stored in call order", async () => {
      const store = await create();
      const calls = Array.from({ length: 60 }, (_, index) => (index % 3 === 0 ? [message(`${index}a`), message(`${index}b`)] : message(`${index}`)));
      await Promise.all(calls.map((call) => store.append("c", call)));
      expect(ids((await store.load("c")).messages)).toStrictEqual(calls.flatMap((call) => ids(Array.isArray(call) ? call : [call])));
    });

    test("conversations are independent", async () => {
      const store = await create();
      await Promise.all([store.append("a", message("a1")), store.append("b", message("b1")), store.append("a", message("a2"))]);
      expect(ids((await store.load("a")).messages)).toStrictEqual(["a1", "a2"]);
      expect(ids((await store.load("b")).messages)).toStrictEqual(["b1"]);
    });

    test("summary records round-trip in order, beside the messages", async () => {
      const store = await create();
      await store.append("c", exampleStoredMessages("s"));
      const first = summary("sum-1", ["s-1", "s-2"]);
      const rolled = { ...summary("sum-2", ["s-1", "s-2", "s-3"]), fingerprint: "abc123", extra: { kept: [1, 2] } };
      await store.appendSummaries("c", first);
      await store.appendSummaries("c", [rolled]);
      await store.append("c", message("later"));
      const loaded = await store.load("c");
      expect(loaded.summaries).toStrictEqual([first, rolled]);
      expect(ids(loaded.messages)).toStrictEqual([...ids(exampleStoredMessages("s")), "later"]);
    });

    test("an unknown conversation loads empty", async () => {
      const store = await create();
      await store.append("known", message("1"));
      const loaded = await store.load("unknown");
      expect(loaded).toStrictEqual({ conversationId: "unknown", messages: [], summaries: [], warnings: [] });
    });

    test("list gives every conversation with a record, ordered by id, with message counts", async () => {
      const store = await create();
      expect(await store.list()).toStrictEqual([]);
      await store.append("b", [message("1"), message("2")]);
      await store.append("a", message("1"));
      await store.appendSummaries("only-summaries", summary("s", ["x"]));
      await store.load("never-written");
      const listed = await store.list();
      expect(listed.map(({ conversationId, messageCount }) => ({ conversationId, messageCount }))).toStrictEqual([
        { conversationId: "a", messageCount: 1 },
        { conversationId: "b", messageCount: 2 },
        { conversationId: "only-summaries", messageCount: 0 },
      ]);
      for (const info of listed) if (info.updatedAt !== undefined) expect(Number.isNaN(Date.parse(info.updatedAt))).toBe(false);
    });

    test("awkward conversation ids are kept apart and listed exactly", async () => {
      const store = await create();
      for (const [index, conversationId] of AWKWARD_CONVERSATION_IDS.entries()) await store.append(conversationId, message(`m${index}`));
      const reopened = await reopen(store);
      expect((await reopened.list()).map((info) => info.conversationId)).toStrictEqual([...AWKWARD_CONVERSATION_IDS].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      for (const [index, conversationId] of AWKWARD_CONVERSATION_IDS.entries()) {
        expect(ids((await reopened.load(conversationId)).messages)).toStrictEqual([`m${index}`]);
      }
    });

    test.for(INVALID_MESSAGES)("a batch with an invalid message ($name) is refused whole, naming index, id and field", async ({ bad, issue }) => {
      const store = await create();
      await store.append("c", message("before"));
      const error = await store.append("c", [message("good"), bad as StoredMessage]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreInputError);
      const { issues, conversationId, code } = error as StoreInputError;
      expect({ conversationId, code }).toStrictEqual({ conversationId: "c", code: "STORE_INPUT_INVALID" });
      expect(issues).toContainEqual({ ...issue, message: expect.any(String) });
      expect(issues.every((entry) => entry.index === 1)).toBe(true);
      expect(ids((await store.load("c")).messages)).toStrictEqual(["before"]);
      expect(ids((await (await reopen(store)).load("c")).messages)).toStrictEqual(["before"]);
    });

    test("every problem of a batch is reported at once", async () => {
      const store = await create();
      const error = (await store.append("c", [{ id: "x", role: "robot", createdAt: 1 } as unknown as StoredMessage, message("ok"), { role: "user" } as StoredMessage]).catch((caught: unknown) => caught)) as StoreInputError;
      expect(error.issues.map(({ index, field }) => ({ index, field }))).toStrictEqual([
        { index: 0, field: "role" },
        { index: 0, field: "createdAt" },
        { index: 2, field: "id" },
      ]);
      expect(await store.list()).toStrictEqual([]);
    });

    test("an invalid summary record is refused", async () => {
      const store = await create();
      for (const bad of [{ summary: "no id" }, { id: "", summary: "" }, { id: "s", when: new Date(0) }, "text"]) {
        await expect(store.appendSummaries("c", bad as StoredSummaryRecord)).rejects.toBeInstanceOf(StoreInputError);
      }
      expect((await store.load("c")).summaries).toStrictEqual([]);
    });

    test.for(INVALID_CONVERSATION_IDS)("a conversation id %s is refused with StoreInputError on field conversationId", async ([, conversationId]) => {
      const store = await create();
      for (const attempt of [() => store.append(conversationId as string, message("1")), () => store.appendSummaries(conversationId as string, summary("s", ["1"])), () => store.load(conversationId as string)]) {
        const error = (await attempt().catch((caught: unknown) => caught)) as StoreInputError;
        expect(error).toBeInstanceOf(StoreInputError);
        expect(error.issues).toStrictEqual([{ index: -1, field: "conversationId", message: expect.any(String) }]);
      }
      expect(await store.list()).toStrictEqual([]);
    });

    test("a reopened store sees every message and summary", async () => {
      const store = await create();
      await store.append("c", exampleStoredMessages("r"));
      await store.appendSummaries("c", summary("sum", ["r-1"]));
      await store.append("d", message("d1"));
      const reopened = await reopen(store);
      const loaded = await reopened.load("c");
      expect(loaded.messages).toStrictEqual(exampleStoredMessages("r"));
      expect(loaded.summaries).toStrictEqual([summary("sum", ["r-1"])]);
      expect((await reopened.list()).map((info) => info.conversationId)).toStrictEqual(["c", "d"]);
      await reopened.append("c", message("after"));
      expect(ids((await reopened.load("c")).messages).at(-1)).toBe("after");
    });

    test("close waits for appends that were not awaited", async () => {
      const store = await create();
      const pending = Array.from({ length: 20 }, (_, index) => store.append("c", message(`${index}`)));
      await store.close();
      await Promise.all(pending);
      const reopened = await reopen(store);
      expect((await reopened.load("c")).messages).toHaveLength(20);
    });

    test("changing appended or loaded objects does not change what is stored", async () => {
      const store = await create();
      const original = exampleStoredMessages("x");
      const appended = exampleStoredMessages("x") as Array<Record<string, unknown>>;
      await store.append("c", appended as unknown as StoredMessage[]);
      appended[0]!.content = "changed";
      (appended[1]!.tool_calls as Array<Record<string, unknown>>)[0]!.id = "changed";
      const loaded = await store.load("c");
      expect(loaded.messages).toStrictEqual(original);
      // A store may freeze what it returns (then these throw) or hand out copies; either way the
      // stored conversation must not change.
      const attempts = [
        () => (loaded.messages as StoredMessage[]).push(message("intruder")),
        () => {
          (loaded.messages[0] as Record<string, unknown>).content = "changed";
        },
        () => {
          ((loaded.messages[1] as Record<string, unknown>).tool_calls as Array<Record<string, unknown>>)[0]!.id = "changed";
        },
      ];
      for (const attempt of attempts) {
        try {
          attempt();
        } catch {}
      }
      await store.append("c", message("next"));
      expect((await store.load("c")).messages).toStrictEqual([...original, message("next")]);
      expect((await (await reopen(store)).load("c")).messages).toStrictEqual([...original, message("next")]);
    });

    test("a property whose value is undefined is left out, as JSON would", async () => {
      const store = await create();
      await store.append("c", { id: "1", role: "tool", content: "ok", tool_call_id: "call", duration: undefined } as unknown as StoredMessage);
      expect((await store.load("c")).messages).toStrictEqual([{ id: "1", role: "tool", content: "ok", tool_call_id: "call" }]);
    });

    test("many messages load in order after a reopen", async () => {
      const store = await create();
      const all = Array.from({ length: 500 }, (_, index) => message(`n${index}`, { createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString() }));
      for (let start = 0; start < all.length; start += 50) await store.append("big", all.slice(start, start + 50));
      expect((await store.load("big")).messages).toStrictEqual(all);
      expect((await (await reopen(store)).load("big")).messages).toStrictEqual(all);
    });

    if (subject.offloading !== false) {
      describe("offloaded text", () => {
        const offloading = async (): Promise<OffloadingStore> => {
          const store = await create();
          if (!supportsOffloading(store)) throw new Error("the store has no appendOffloaded, loadOffloaded and listOffloaded (pass offloading: false)");
          return store;
        };
        const reopenOffloading = async (store: ConversationStore) => (await reopen(store)) as OffloadingStore;
        // Tool output holds anything: NUL, a lone surrogate, emoji, newlines, a megabyte.
        const awkward = `log\u0000start\n\ud800 lone ${"😀".repeat(3)} \u2028 "quoted" \\ ${"line of a big log\n".repeat(60_000)}end`;

        test("records round-trip by handle, are listed without their text in the order stored, and survive a reopen", async () => {
          const store = await offloading();
          await store.appendOffloaded("c", [offloaded("ctx_00000000000000a1", awkward, "call-1"), offloaded("ctx_00000000000000b2", "second")]);
          await store.appendOffloaded("c", [offloaded("ctx_00000000000000c3", "")]);
          expect(await store.loadOffloaded("c", "ctx_00000000000000a1")).toStrictEqual(offloaded("ctx_00000000000000a1", awkward, "call-1"));
          expect(await store.loadOffloaded("c", "ctx_ffffffffffffffff")).toBeUndefined();
          const listed = [
            { handle: "ctx_00000000000000a1", itemId: "call-1", chars: awkward.length, createdAt: "2025-03-01T12:00:00.000Z" },
            { handle: "ctx_00000000000000b2", itemId: "tool-1", chars: 6, createdAt: "2025-03-01T12:00:00.000Z" },
            { handle: "ctx_00000000000000c3", itemId: "tool-1", chars: 0, createdAt: "2025-03-01T12:00:00.000Z" },
          ];
          expect(await store.listOffloaded("c")).toStrictEqual(listed);
          const reopened = await reopenOffloading(store);
          expect(await reopened.loadOffloaded("c", "ctx_00000000000000a1")).toStrictEqual(offloaded("ctx_00000000000000a1", awkward, "call-1"));
          expect(await reopened.loadOffloaded("c", "ctx_00000000000000c3")).toStrictEqual(offloaded("ctx_00000000000000c3", ""));
          expect(await reopened.listOffloaded("c")).toStrictEqual(listed);
        });

        test("a handle is kept once, with its first text, whether repeated in a batch, in a later append or after a reopen", async () => {
          const store = await offloading();
          await store.appendOffloaded("c", [offloaded("ctx_1", "first"), offloaded("ctx_1", "again in the batch")]);
          await store.appendOffloaded("c", [offloaded("ctx_1", "a later append"), offloaded("ctx_2", "two")]);
          const reopened = await reopenOffloading(store);
          await reopened.appendOffloaded("c", [offloaded("ctx_2", "after a reopen")]);
          await Promise.all([reopened.appendOffloaded("c", [offloaded("ctx_3", "x")]), reopened.appendOffloaded("c", [offloaded("ctx_3", "y")])]);
          expect(await reopened.loadOffloaded("c", "ctx_1")).toStrictEqual(offloaded("ctx_1", "first"));
          expect(await reopened.loadOffloaded("c", "ctx_2")).toStrictEqual(offloaded("ctx_2", "two"));
          expect((await reopened.loadOffloaded("c", "ctx_3"))?.text).toBe("x");
          expect((await reopened.listOffloaded("c")).map((info) => info.handle)).toStrictEqual(["ctx_1", "ctx_2", "ctx_3"]);
        });

        test("conversations keep their own handles, and offloaded text is not part of load or list", async () => {
          const store = await offloading();
          await store.append("a", message("m1"));
          await store.appendOffloaded("a", [offloaded("ctx_same", "of a")]);
          await store.appendOffloaded("b", [offloaded("ctx_same", "of b")]);
          expect((await store.loadOffloaded("a", "ctx_same"))?.text).toBe("of a");
          expect((await store.loadOffloaded("b", "ctx_same"))?.text).toBe("of b");
          expect(await store.loadOffloaded("unknown", "ctx_same")).toBeUndefined();
          expect(await store.listOffloaded("unknown")).toStrictEqual([]);
          expect(await store.load("a")).toStrictEqual({ conversationId: "a", messages: [message("m1")], summaries: [], warnings: [] });
          expect(await store.load("b")).toStrictEqual({ conversationId: "b", messages: [], summaries: [], warnings: [] });
          expect((await store.list()).map((info) => info.conversationId)).toStrictEqual(["a"]);
        });

        test("an invalid record refuses the batch whole, naming index, handle and field", async () => {
          const store = await offloading();
          const bad = [
            offloaded("ctx_good", "kept out too"),
            { handle: "../escape", itemId: "t", text: "x", createdAt: "2025-03-01T12:00:00.000Z" },
            { handle: "ctx_x", itemId: "", text: 5, createdAt: "2025-03-01T12:00:00.000Z" },
            "text",
          ] as unknown as OffloadedRecord[];
          const error = (await store.appendOffloaded("c", bad).catch((caught: unknown) => caught)) as StoreInputError;
          expect(error).toBeInstanceOf(StoreInputError);
          expect(error.issues).toStrictEqual([
            { index: 1, id: "../escape", field: "handle", message: "must be 1 to 128 letters, digits, '_' or '-'" },
            { index: 2, id: "ctx_x", field: "itemId", message: "must be a non-empty string" },
            { index: 2, id: "ctx_x", field: "text", message: "must be a string" },
            { index: 3, field: "", message: "must be a plain object" },
          ]);
          expect(await store.listOffloaded("c")).toStrictEqual([]);
          const invalidId = (await store.appendOffloaded("", [offloaded("ctx_1", "x")]).catch((caught: unknown) => caught)) as StoreInputError;
          expect(invalidId.issues).toStrictEqual([{ index: -1, field: "conversationId", message: expect.any(String) }]);
        });
      });
    }

    if (subject.tokenCounts !== false) {
      describe("token counts", () => {
        const counting = async (): Promise<TokenCountingStore> => {
          const store = await create();
          if (!supportsTokenCounts(store)) throw new Error("the store has no appendTokenCounts and loadTokenCounts (pass tokenCounts: false)");
          return store;
        };
        const reopenCounting = async (store: ConversationStore) => (await reopen(store)) as TokenCountingStore;

        test("records round-trip and survive a reopen; an encoding keeps its own count of the same key", async () => {
          const store = await counting();
          const records = [count("k1", 12), count("k1", 14, "cl100k_base"), count(`key_with-dash_${"0123456789abcdefghijklmnopqrstuvwxyz".repeat(2)}`.slice(0, 64), 0), count("k2", 1_000_000)];
          await store.appendTokenCounts("c", records.slice(0, 2));
          await store.appendTokenCounts("c", records.slice(2));
          await store.appendTokenCounts("c", []);
          expect(sortedCounts(await store.loadTokenCounts("c"))).toStrictEqual(sortedCounts(records));
          const reopened = await reopenCounting(store);
          expect(sortedCounts(await reopened.loadTokenCounts("c"))).toStrictEqual(sortedCounts(records));
        });

        test("a (encoding, key) is kept once, with its first count, whether repeated in a batch, in a later append, after a reopen or at once", async () => {
          const store = await counting();
          await store.appendTokenCounts("c", [count("k1", 1), count("k1", 2)]);
          await store.appendTokenCounts("c", [count("k1", 3), count("k2", 20)]);
          const reopened = await reopenCounting(store);
          await reopened.appendTokenCounts("c", [count("k2", 21), count("k1", 4)]);
          await Promise.all([reopened.appendTokenCounts("c", [count("k3", 30)]), reopened.appendTokenCounts("c", [count("k3", 31)])]);
          const loaded = sortedCounts(await reopened.loadTokenCounts("c"));
          expect(loaded.filter((record) => record.key !== "k3")).toStrictEqual([count("k1", 1), count("k2", 20)]);
          expect(loaded.filter((record) => record.key === "k3")).toHaveLength(1);
          expect(sortedCounts(await (await reopenCounting(reopened)).loadTokenCounts("c"))).toStrictEqual(loaded);
        });

        test("an unknown conversation has no counts; conversations keep their own; counts are not part of load or list", async () => {
          const store = await counting();
          expect(await store.loadTokenCounts("unknown")).toStrictEqual([]);
          await store.append("a", message("m1"));
          await store.appendTokenCounts("a", [count("same", 1)]);
          await store.appendTokenCounts("b", [count("same", 2)]);
          expect(await store.loadTokenCounts("a")).toStrictEqual([count("same", 1)]);
          expect(await store.loadTokenCounts("b")).toStrictEqual([count("same", 2)]);
          expect(await store.loadTokenCounts("unknown")).toStrictEqual([]);
          expect(await store.load("a")).toStrictEqual({ conversationId: "a", messages: [message("m1")], summaries: [], warnings: [] });
          expect(await store.load("b")).toStrictEqual({ conversationId: "b", messages: [], summaries: [], warnings: [] });
          expect((await store.list()).map((info) => info.conversationId)).toStrictEqual(["a"]);
        });

        test("an invalid record refuses the batch whole before writing, naming index, key and field", async () => {
          const store = await counting();
          const bad = [
            count("good", 1),
            { encoding: "o200k_base", key: "../escape", tokens: 1 },
            { encoding: "", key: "k", tokens: -1 },
            { encoding: "o200k_base", key: "k", tokens: 1.5 },
            "text",
          ] as unknown as TokenCountRecord[];
          const error = (await store.appendTokenCounts("c", bad).catch((caught: unknown) => caught)) as StoreInputError;
          expect(error).toBeInstanceOf(StoreInputError);
          expect(error.issues).toStrictEqual([
            { index: 1, id: "../escape", field: "key", message: "must be 1 to 64 letters, digits, '_' or '-'" },
            { index: 2, id: "k", field: "encoding", message: "must be a string of 1 to 64 characters" },
            { index: 2, id: "k", field: "tokens", message: "must be a non-negative integer" },
            { index: 3, id: "k", field: "tokens", message: "must be a non-negative integer" },
            { index: 4, field: "", message: "must be a plain object" },
          ]);
          expect(await store.loadTokenCounts("c")).toStrictEqual([]);
          const reopened = await reopenCounting(store);
          expect(await reopened.loadTokenCounts("c")).toStrictEqual([]);
          for (const attempt of [() => reopened.appendTokenCounts("", [count("k", 1)]), () => reopened.loadTokenCounts("")]) {
            const invalidId = (await attempt().catch((caught: unknown) => caught)) as StoreInputError;
            expect(invalidId.issues).toStrictEqual([{ index: -1, field: "conversationId", message: expect.any(String) }]);
          }
        });

        test("30,000 records, appended a turn at a time, load whole after a reopen", async () => {
          const store = await counting();
          const records = Array.from({ length: 30_000 }, (_, index) => count(`key-${index.toString(36)}`, index % 5000, index % 7 === 0 ? "cl100k_base" : "o200k_base"));
          for (let start = 0; start < records.length; start += 3000) await store.appendTokenCounts("big", records.slice(start, start + 3000));
          const reopened = await reopenCounting(store);
          expect(sortedCounts(await reopened.loadTokenCounts("big"))).toStrictEqual(sortedCounts(records));
        });
      });
    }
  });
}
