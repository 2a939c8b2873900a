// PostgreSQL-specific behaviour of PostgresStore against a real server started by the test: exact round
// trips through the json column, foreign rows, atomic batches, schema options, migration and pools.
// The behaviour every store shares is in postgres-store-contract.test.ts.
import { PluginOptionsError } from "@ctxpipe/core";
import fc from "fast-check";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { STORE_CORRUPT } from "../errors/store-corrupt-error.js";
import { StoreInputError } from "../errors/store-input-error.js";
import type { StoredMessage } from "../stored-message.js";
import { usePostgresServer } from "./__fixtures__/use-postgres-server.js";
import { PostgresStore } from "./postgres-store.js";
import type { PostgresStoreOptions } from "./postgres-store-options.js";

const server = usePostgresServer();
let admin: pg.Pool;
const opened: PostgresStore[] = [];

beforeAll(() => {
  admin = new pg.Pool({ connectionString: server.connectionString });
  // An idle client hears the server stop at the end of the file; pg raises that on the pool.
  admin.on("error", () => {});
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await admin?.end();
});

type ExtraOptions = Partial<Pick<PostgresStoreOptions, "schema" | "tablePrefix" | "migrate">>;

function openStore(options: ExtraOptions = {}): PostgresStore {
  const store = new PostgresStore({ connectionString: server.connectionString, schema: server.uniqueSchema(), ...options });
  opened.push(store);
  return store;
}

function message(id: string, extra: Record<string, unknown> = {}): StoredMessage {
  return { id, role: "user", content: `text of ${id}`, ...extra };
}

async function rowCount(table: string): Promise<number> {
  const result = await admin.query<{ count: string }>(`SELECT count(*) AS count FROM ${table}`);
  return Number(result.rows[0]!.count);
}

describe("round trip", () => {
  test("load returns the appended text exactly: key order, number spelling, NUL and lone surrogates", async () => {
    const store = openStore();
    const tricky = message("m1", {
      data: { zebra: 1, apple: 2, nested: { z: [3, { b: 1, a: 2 }], a: null } },
      numbers: [1e21, 0.1, -5e-7, 123456789012345680000, 2 ** 53 + 2],
      text: "nul \u0000 surrogate \ud800 emoji 🦊 quote \" backslash \\ newline \n",
    });
    await store.append("c", [tricky, message("m2")]);
    const loaded = await store.load("c");
    expect(JSON.stringify(loaded.messages)).toBe(JSON.stringify([tricky, message("m2")]));
  });

  test("any JSON in any field survives append and load unchanged, batched or not", async () => {
    const store = openStore();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), async (batches) => {
        const conversationId = `property-${++run}`;
        const appended: StoredMessage[] = [];
        for (const [batchIndex, batch] of batches.entries()) {
          const messages = batch.map((data, index) => message(`b${batchIndex}-${index}`, { data }));
          await store.append(conversationId, messages.length === 1 ? messages[0]! : messages);
          appended.push(...messages);
        }
        const loaded = await store.load(conversationId);
        expect(JSON.stringify(loaded.messages)).toBe(JSON.stringify(appended));
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe("foreign rows", () => {
  test.for([
    { table: "messages", body: '{"hello":"world"}', field: "id" },
    { table: "messages", body: "42", field: "" },
    { table: "messages", body: "null", field: "" },
    { table: "messages", body: '{"id":"x","role":"robot"}', field: "role" },
    { table: "summaries", body: "[]", field: "" },
  ])("a $table row $body stops load with the table and its sequence number, and stays as it is", async ({ table, body }) => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    await store.append("c", [message("m1"), message("m2")]);
    await store.appendSummaries("c", [{ id: "s1" }, { id: "s2" }]);
    await admin.query(`INSERT INTO ${schema}.ctxpipe_${table} (conversation_id, seq, body) VALUES ('c', 3, $1)`, [body]);
    await expect(store.load("c")).rejects.toMatchObject({
      name: "StoreCorruptError",
      code: STORE_CORRUPT,
      location: `${schema}.ctxpipe_${table}`,
      line: 3,
    });
    const foreign = await admin.query<{ body: string }>(`SELECT body::text AS body FROM ${schema}.ctxpipe_${table} WHERE conversation_id = 'c' AND seq = 3`);
    expect(foreign.rows).toEqual([{ body }]);
  });

  test("the error message names the table, the row and what is wrong with it", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    await store.append("c", message("m1"));
    await admin.query(`INSERT INTO ${schema}.ctxpipe_messages (conversation_id, seq, body) VALUES ('c', 7, '{"role":"user"}')`);
    await expect(store.load("c")).rejects.toThrow(new RegExp(`^${schema}\\.ctxpipe_messages, line 7: .*id`));
  });
});

describe("row order", () => {
  test("rows updated by hand (moved to the end of the table, so a scan may send them last) load in sequence order", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    const messages = [message("m1"), message("m2"), message("m3")];
    await store.append("c", messages);
    await store.appendSummaries("c", [{ id: "s1" }, { id: "s2" }]);
    await admin.query(`UPDATE ${schema}.ctxpipe_messages SET body = body WHERE conversation_id = 'c' AND seq = 1`);
    await admin.query(`UPDATE ${schema}.ctxpipe_summaries SET body = body WHERE conversation_id = 'c' AND seq = 1`);
    const loaded = await store.load("c");
    expect(loaded.messages).toStrictEqual(messages);
    expect(loaded.summaries).toStrictEqual([{ id: "s1" }, { id: "s2" }]);
  });
});

describe("atomic batches", () => {
  test("an invalid message rejects the whole batch before anything is written", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    const batch = [message("m1"), { id: "m2", role: "robot" } as unknown as StoredMessage, message("m3")];
    await expect(store.append("c", batch)).rejects.toBeInstanceOf(StoreInputError);
    expect(await store.load("c")).toMatchObject({ messages: [], summaries: [] });
    expect(await store.list()).toEqual([]);
  });

  test("a batch the database refuses halfway is not written at all and leaves no gap in the numbers", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    await store.append("c", message("m1"));
    await admin.query(`CREATE FUNCTION ${schema}.refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.body->>'id' = 'poison' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$`);
    await admin.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON ${schema}.ctxpipe_messages FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse_poison()`);
    await expect(store.append("c", [message("m2"), message("poison"), message("m3")])).rejects.toThrow("poisoned row");
    await store.append("c", message("m4"));
    expect((await store.load("c")).messages.map((stored) => stored.id)).toEqual(["m1", "m4"]);
    const seqs = await admin.query<{ seq: string }>(`SELECT seq FROM ${schema}.ctxpipe_messages ORDER BY seq`);
    expect(seqs.rows.map((row) => Number(row.seq))).toEqual([1, 2]);
    expect(await store.list()).toMatchObject([{ conversationId: "c", messageCount: 2 }]);
  });
});

describe("one store", () => {
  test("appends that queue up behind one in flight are written together, in call order", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    const ids = Array.from({ length: 20 }, (_, index) => `m${index}`);
    await Promise.all(ids.map((id) => store.append("c", message(id))));
    expect((await store.load("c")).messages.map((stored) => stored.id)).toEqual(ids);
    // Rows written by one transaction share its xmin: the first append alone, the 19 queued behind it together.
    const transactions = await admin.query<{ xmin: string; count: string }>(
      `SELECT xmin::text AS xmin, count(*) AS count FROM ${schema}.ctxpipe_messages GROUP BY xmin ORDER BY min(seq)`,
    );
    expect(transactions.rows.map((row) => Number(row.count))).toEqual([1, 19]);
  });

  test("an append the database refuses fails alone, even when it was grouped with others", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    await store.append("c", message("m0"));
    await admin.query(`CREATE FUNCTION ${schema}.refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.body->>'id' = 'poison' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$`);
    await admin.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON ${schema}.ctxpipe_messages FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse_poison()`);
    const calls = ["m1", "m2", "m3", "poison", "m5", "m6"].map((id) => (id === "m3" ? [message(id), message(`${id}b`)] : message(id)));
    const outcomes = await Promise.allSettled(calls.map((call) => store.append("c", call)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect((await store.load("c")).messages.map((stored) => stored.id)).toEqual(["m0", "m1", "m2", "m3", "m3b", "m5", "m6"]);
    const seqs = await admin.query<{ seq: string }>(`SELECT seq FROM ${schema}.ctxpipe_messages ORDER BY seq`);
    expect(seqs.rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  test("appends made without waiting are stored in call order and seen by the next load", async () => {
    const store = openStore();
    const ids = Array.from({ length: 30 }, (_, index) => `m${index}`);
    const appends = ids.map((id, index) => (index % 3 === 0 ? store.append("c", [message(id)]) : store.append("c", message(id))));
    const loaded = await store.load("c");
    expect(loaded.messages.map((stored) => stored.id)).toEqual(ids);
    await Promise.all(appends);
  });

  test("list gives each conversation with a record, its message count and last append time, ordered by id", async () => {
    const store = openStore();
    const before = new Date();
    await store.append("b", [message("m1"), message("m2")]);
    await store.append("a", message("m1"));
    await store.appendSummaries("c-summaries-only", { id: "s1" });
    await store.append("b", []);
    const listed = await store.list();
    expect(listed.map(({ conversationId, messageCount }) => ({ conversationId, messageCount }))).toEqual([
      { conversationId: "a", messageCount: 1 },
      { conversationId: "b", messageCount: 2 },
      { conversationId: "c-summaries-only", messageCount: 0 },
    ]);
    for (const info of listed) expect(new Date(info.updatedAt!).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });

  test("an append is visible to another store with its own pool once it resolves", async () => {
    const schema = server.uniqueSchema();
    const writer = openStore({ schema });
    const reader = openStore({ schema });
    await writer.append("c", [message("m1"), message("m2")]);
    await writer.appendSummaries("c", { id: "s1" });
    expect(await reader.load("c")).toEqual({ conversationId: "c", messages: [message("m1"), message("m2")], summaries: [{ id: "s1" }], warnings: [] });
  });

  test("after close, the store refuses work", async () => {
    const store = openStore();
    await store.close();
    await expect(store.append("c", message("m1"))).rejects.toThrow(/closed/);
    await expect(store.load("c")).rejects.toThrow(/closed/);
  });
});

describe("schema and migration", () => {
  test("schema and tablePrefix name the tables, which the first use creates", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema, tablePrefix: "chat_" });
    expect(store.tables).toEqual({
      conversations: `${schema}.chat_conversations`,
      messages: `${schema}.chat_messages`,
      summaries: `${schema}.chat_summaries`,
      offloaded: `${schema}.chat_offloaded`,
      tokenCounts: `${schema}.chat_token_counts`,
    });
    await store.append("c", message("m1"));
    const tables = await admin.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [schema]);
    expect(tables.rows.map((row) => row.table_name)).toEqual(["chat_conversations", "chat_messages", "chat_offloaded", "chat_summaries", "chat_token_counts"]);
    const columns = await admin.query<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'chat_messages' ORDER BY ordinal_position",
      [schema],
    );
    expect(columns.rows).toEqual([
      { column_name: "conversation_id", data_type: "text" },
      { column_name: "seq", data_type: "bigint" },
      { column_name: "body", data_type: "json" },
      { column_name: "created_at", data_type: "timestamp with time zone" },
    ]);
    expect(await rowCount(`${schema}.chat_messages`)).toBe(1);
  });

  test("a schema created before offloading existed gets the offloaded table on first use, and keeps its rows", async () => {
    const schema = server.uniqueSchema();
    await openStore({ schema }).append("c", message("m1"));
    await admin.query(`DROP TABLE "${schema}".ctxpipe_offloaded`);
    const store = openStore({ schema });
    const record = { handle: "ctx_0123456789abcdef", itemId: "call-1", text: "whole", createdAt: "2025-03-01T12:00:00.000Z" };
    await store.appendOffloaded("c", [record]);
    expect(await store.loadOffloaded("c", record.handle)).toStrictEqual(record);
    expect((await store.load("c")).messages).toStrictEqual([message("m1")]);
    const columns = await admin.query<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'ctxpipe_offloaded' ORDER BY ordinal_position",
      [schema],
    );
    expect(columns.rows).toStrictEqual([
      { column_name: "conversation_id", data_type: "text" },
      { column_name: "handle", data_type: "text" },
      { column_name: "position", data_type: "bigint" },
      { column_name: "item_id", data_type: "text" },
      { column_name: "created_at", data_type: "text" },
      { column_name: "chars", data_type: "integer" },
      { column_name: "body", data_type: "json" },
      { column_name: "stored_at", data_type: "timestamp with time zone" },
    ]);
  });

  test("a schema created before token counts existed gets the token_counts table on first use, and keeps its rows", async () => {
    const schema = server.uniqueSchema();
    await openStore({ schema }).append("c", message("m1"));
    await admin.query(`DROP TABLE "${schema}".ctxpipe_token_counts`);
    const store = openStore({ schema });
    await store.appendTokenCounts("c", [{ encoding: "o200k_base", key: "k1", tokens: 7 }]);
    expect(await store.loadTokenCounts("c")).toStrictEqual([{ encoding: "o200k_base", key: "k1", tokens: 7 }]);
    expect((await store.load("c")).messages).toStrictEqual([message("m1")]);
    const columns = await admin.query<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'ctxpipe_token_counts' ORDER BY ordinal_position",
      [schema],
    );
    expect(columns.rows).toStrictEqual([
      { column_name: "conversation_id", data_type: "text" },
      { column_name: "encoding", data_type: "text" },
      { column_name: "key", data_type: "text" },
      { column_name: "tokens", data_type: "bigint" },
    ]);
  });

  test("a token-count row that is not a valid record (edited by hand) is skipped", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema });
    await store.appendTokenCounts("c", [{ encoding: "o200k_base", key: "good", tokens: 3 }]);
    await admin.query(
      `INSERT INTO "${schema}".ctxpipe_token_counts (conversation_id, encoding, key, tokens) VALUES ('c', 'o200k_base', 'bad/key', 1), ('c', 'o200k_base', 'negative', -2), ('c', '', 'empty', 1)`,
    );
    expect(await store.loadTokenCounts("c")).toStrictEqual([{ encoding: "o200k_base", key: "good", tokens: 3 }]);
  });

  test("overlapping batches of token counts from many stores at once neither deadlock nor keep two counts of a key", async () => {
    const schema = server.uniqueSchema();
    const stores = Array.from({ length: 4 }, () => openStore({ schema }));
    const keys = Array.from({ length: 300 }, (_, index) => `k${index}`);
    // Each store writes every key, in its own order, with its own count.
    await Promise.all(
      stores.map((store, which) => {
        const order = which % 2 === 0 ? keys : [...keys].reverse();
        return Promise.all([0, 1, 2].map((part) => store.appendTokenCounts("c", order.slice(part * 100, part * 100 + 150).map((key) => ({ encoding: "o200k_base", key, tokens: which })))));
      }),
    );
    const loaded = await stores[0]!.loadTokenCounts("c");
    expect(loaded.map((record) => record.key).sort()).toStrictEqual([...keys].sort());
    expect(await rowCount(`"${schema}".ctxpipe_token_counts`)).toBe(300);
  });

  test("with migrate: false the store creates nothing and fails on missing tables", async () => {
    const schema = server.uniqueSchema();
    const store = openStore({ schema, migrate: false });
    await expect(store.append("c", message("m1"))).rejects.toThrow(/does not exist/);
    const schemas = await admin.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
    expect(schemas.rowCount).toBe(0);
    await openStore({ schema }).migrate();
    await store.append("c", message("m1"));
    expect((await store.load("c")).messages).toEqual([message("m1")]);
  });

  test("stores starting at once on a fresh schema all migrate without tripping over each other", async () => {
    const schema = server.uniqueSchema();
    const stores = Array.from({ length: 6 }, () => openStore({ schema }));
    await Promise.all(stores.map((store, index) => store.append("c", message(`m${index}`))));
    expect((await stores[0]!.load("c")).messages).toHaveLength(6);
  });
});

describe("pools", () => {
  test("close ends the pool the store created", async () => {
    const applicationName = "ctxpipe_owned_pool";
    const store = new PostgresStore({ connectionString: `${server.connectionString}&application_name=${applicationName}`, schema: server.uniqueSchema() });
    await store.append("c", message("m1"));
    const connections = () =>
      admin.query<{ count: string }>("SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1", [applicationName]).then((result) => Number(result.rows[0]!.count));
    expect(await connections()).toBeGreaterThan(0);
    await store.close();
    await expect.poll(connections, { timeout: 10_000 }).toBe(0);
  });

  test("close leaves a pool the application gave it open", async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString });
    pool.on("error", () => {});
    try {
      const store = new PostgresStore({ pool, schema: server.uniqueSchema() });
      await store.append("c", message("m1"));
      await store.close();
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  test.for([
    { name: "neither pool nor connectionString", options: {} },
    { name: "both pool and connectionString", options: { connectionString: "postgresql://x", pool: new pg.Pool() } },
    { name: "a schema that needs quoting", options: { connectionString: "postgresql://x", schema: "My-Schema" } },
    { name: "a table prefix starting with a digit", options: { connectionString: "postgresql://x", tablePrefix: "1_" } },
    { name: "a table prefix too long for PostgreSQL names", options: { connectionString: "postgresql://x", tablePrefix: "p".repeat(51) } },
    { name: "a negative cachedConversations", options: { connectionString: "postgresql://x", cachedConversations: -1 } },
    { name: "a fractional cachedConversations", options: { connectionString: "postgresql://x", cachedConversations: 1.5 } },
  ])("options with $name are refused at construction", ({ options }) => {
    expect(() => new PostgresStore(options as PostgresStoreOptions)).toThrow(PluginOptionsError);
  });
});
