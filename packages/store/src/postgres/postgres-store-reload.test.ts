// PostgresStore's incremental reloads against a real server: a conversation the store loaded before is
// read from the rows after the last one it kept, hands back the same frozen objects for those it kept,
// stays equal to what a fresh store loads whoever appended, and reads everything again when the rows it
// kept are gone or were written again.
import fc from "fast-check";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { LoadedConversation } from "../conversation-store.js";
import { STORE_CORRUPT } from "../errors/store-corrupt-error.js";
import type { StoredMessage, StoredSummaryRecord } from "../stored-message.js";
import { usePostgresServer } from "./__fixtures__/use-postgres-server.js";
import { PostgresStore } from "./postgres-store.js";

const server = usePostgresServer();
let admin: pg.Pool;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(() => {
  admin = new pg.Pool({ connectionString: server.connectionString });
  admin.on("error", () => {});
});
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
afterAll(async () => {
  await admin?.end();
});

/** A store on its own pool whose queries are counted: `rowsRead()` is how many rows the server sent since the last call. */
function spiedStore(schema: string, cachedConversations?: number): { store: PostgresStore; rowsRead: () => number } {
  const pool = new pg.Pool({ connectionString: server.connectionString });
  pool.on("error", () => {});
  let rows = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  (pool as unknown as { query: unknown }).query = async (...args: unknown[]) => {
    const result = await query(...args);
    rows += result.rowCount ?? 0;
    return result;
  };
  const store = new PostgresStore({ pool, schema, ...(cachedConversations === undefined ? {} : { cachedConversations }) });
  cleanups.push(async () => {
    await store.close();
    await pool.end();
  });
  return {
    store,
    rowsRead: () => {
      const read = rows;
      rows = 0;
      return read;
    },
  };
}

function openStore(schema: string): PostgresStore {
  const store = new PostgresStore({ connectionString: server.connectionString, schema });
  cleanups.push(() => store.close());
  return store;
}

/** What a store that never loaded the conversation loads. */
async function freshLoad(schema: string, conversationId: string): Promise<LoadedConversation> {
  const store = new PostgresStore({ connectionString: server.connectionString, schema, cachedConversations: 0 });
  try {
    return await store.load(conversationId);
  } finally {
    await store.close();
  }
}

const message = (id: string): StoredMessage => ({ id, role: "user", content: `text of ${id}`, meta: { nested: [id] } });
const summary = (id: string): StoredSummaryRecord => ({ id, summary: `summary ${id}`, coveredIds: [id] });

describe("identity", () => {
  test("a reload hands back the same frozen objects for the records it had, new ones only for new rows", async () => {
    const schema = server.uniqueSchema();
    const { store } = spiedStore(schema);
    await store.append("c", [message("m1"), message("m2")]);
    await store.appendSummaries("c", summary("s1"));
    const first = await store.load("c");
    await store.append("c", message("m3"));
    await store.appendSummaries("c", summary("s2"));
    const second = await store.load("c");
    expect(second).toStrictEqual({ conversationId: "c", messages: [message("m1"), message("m2"), message("m3")], summaries: [summary("s1"), summary("s2")], warnings: [] });
    expect(second.messages.slice(0, 2).every((loaded, index) => loaded === first.messages[index])).toBe(true);
    expect(second.summaries[0]).toBe(first.summaries[0]);
    // Frozen all the way down, and the arrays too: callers share them.
    for (const loaded of [second, second.messages, second.summaries, second.messages[2], (second.messages[2] as unknown as { meta: { nested: unknown } }).meta.nested]) expect(Object.isFrozen(loaded)).toBe(true);
    // The first load's arrays did not grow.
    expect(first.messages).toHaveLength(2);
    const third = await store.load("c");
    expect(third.messages.every((loaded, index) => loaded === second.messages[index])).toBe(true);
    expect(third.messages).not.toBe(second.messages);
  });

  test("with cachedConversations: 0 every load parses every row again", async () => {
    const schema = server.uniqueSchema();
    const { store, rowsRead } = spiedStore(schema, 0);
    await store.append("c", [message("m1"), message("m2")]);
    const first = await store.load("c");
    rowsRead();
    const second = await store.load("c");
    expect(second).toStrictEqual(first);
    expect(second.messages[0]).not.toBe(first.messages[0]);
    expect(rowsRead()).toBe(2);
  });
});

describe("rows read", () => {
  test("a reload reads only the rows after the last it kept, plus that one (without its body) to check it", async () => {
    const schema = server.uniqueSchema();
    const { store, rowsRead } = spiedStore(schema);
    await store.append("c", Array.from({ length: 500 }, (_, index) => message(`m${index}`)));
    await store.appendSummaries("c", [summary("s1"), summary("s2")]);
    rowsRead();
    await store.load("c");
    expect(rowsRead()).toBe(502);
    await store.append("c", message("new"));
    rowsRead();
    expect((await store.load("c")).messages.at(-1)).toStrictEqual(message("new"));
    expect(rowsRead()).toBe(1 + 1 + 1); // the message kept last, the new one, the summary kept last
    await store.load("c");
    expect(rowsRead()).toBe(2);
    await store.append("c", [message("a"), message("b"), message("c")]);
    await store.appendSummaries("c", summary("s3"));
    rowsRead();
    expect(await store.load("c")).toStrictEqual(await freshLoad(schema, "c"));
    expect(rowsRead()).toBe(1 + 3 + 1 + 1);
  });

  test("cachedConversations bounds the conversations kept: the least recently loaded is read whole again", async () => {
    const schema = server.uniqueSchema();
    const { store, rowsRead } = spiedStore(schema, 2);
    for (const conversationId of ["a", "b", "c"]) await store.append(conversationId, [message(`${conversationId}1`), message(`${conversationId}2`)]);
    await store.load("a");
    await store.load("b");
    await store.load("a"); // a is now the most recently loaded
    await store.load("c"); // evicts b
    rowsRead();
    await store.load("a");
    expect(rowsRead()).toBe(1);
    await store.load("b");
    expect(rowsRead()).toBe(2);
  });
});

describe("other writers", () => {
  test("appends from another store between reloads are read, and every load equals a fresh store's", async () => {
    const schema = server.uniqueSchema();
    const { store: reader } = spiedStore(schema);
    const writer = openStore(schema);
    await writer.append("c", message("w1"));
    expect(await reader.load("c")).toStrictEqual(await freshLoad(schema, "c"));
    await Promise.all([writer.append("c", [message("w2"), message("w3")]), reader.append("c", message("r1")), writer.appendSummaries("c", summary("s1"))]);
    expect(await reader.load("c")).toStrictEqual(await freshLoad(schema, "c"));
    await writer.append("c", message("w4"));
    const loaded = await reader.load("c");
    expect(loaded).toStrictEqual(await freshLoad(schema, "c"));
    expect(loaded.messages.map((entry) => entry.id).sort()).toStrictEqual(["r1", "w1", "w2", "w3", "w4"]);
  });

  test("two loads at once, with appends in between, extend what the store kept once", async () => {
    const schema = server.uniqueSchema();
    const { store } = spiedStore(schema);
    const writer = openStore(schema);
    await writer.append("c", message("m0"));
    await store.load("c");
    for (let round = 1; round <= 5; round++) {
      await writer.append("c", message(`m${round}`));
      const loads = await Promise.all([store.load("c"), store.load("c"), store.load("c")]);
      const fresh = await freshLoad(schema, "c");
      for (const loaded of loads) expect(loaded).toStrictEqual(fresh);
    }
  });

  test("a property: any interleaving of appends from two stores and loads gives, at every load, what a fresh store loads", async () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), by: fc.integer({ min: 0, max: 1 }), size: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant("summary" as const), by: fc.integer({ min: 0, max: 1 }) }),
      fc.record({ kind: fc.constant("load" as const), by: fc.integer({ min: 0, max: 1 }) }),
      fc.record({ kind: fc.constant("concurrent" as const), size: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 14 }), async (operations) => {
        const schema = server.uniqueSchema();
        const stores = [openStore(schema), openStore(schema)];
        let next = 0;
        const previous: Array<LoadedConversation | undefined> = [undefined, undefined];
        const check = async (by: number, loaded: LoadedConversation) => {
          expect(loaded).toStrictEqual(await freshLoad(schema, "c"));
          // Whatever this store handed out before comes back as the same objects.
          const before = previous[by];
          if (before !== undefined) {
            expect(before.messages.every((entry, index) => loaded.messages[index] === entry)).toBe(true);
            expect(before.summaries.every((entry, index) => loaded.summaries[index] === entry)).toBe(true);
          }
          previous[by] = loaded;
        };
        for (const step of operations) {
          if (step.kind === "append") await stores[step.by]!.append("c", Array.from({ length: step.size }, () => message(`m${next++}`)));
          else if (step.kind === "summary") await stores[step.by]!.appendSummaries("c", summary(`s${next++}`));
          else if (step.kind === "load") await check(step.by, await stores[step.by]!.load("c"));
          else {
            // Store 1 appends while store 0 loads: the load sees the append whole or not at all.
            const [loaded] = await Promise.all([stores[0]!.load("c"), stores[1]!.append("c", Array.from({ length: step.size }, () => message(`m${next++}`)))]);
            const fresh = await freshLoad(schema, "c");
            expect(fresh.messages.slice(0, loaded.messages.length)).toStrictEqual(loaded.messages);
            expect([0, step.size]).toContain(fresh.messages.length - loaded.messages.length);
            previous[0] = loaded;
          }
        }
        await check(0, await stores[0]!.load("c"));
        await check(1, await stores[1]!.load("c"));
        await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe("when what the store kept cannot be trusted, it reads everything again", () => {
  const scenarios: ReadonlyArray<{ name: string; change: (schema: string) => Promise<void> }> = [
    {
      name: "the conversation deleted and written again, longer than before",
      change: async (schema) => {
        await admin.query(`DELETE FROM ${schema}.ctxpipe_messages WHERE conversation_id = 'c'`);
        await admin.query(`DELETE FROM ${schema}.ctxpipe_summaries WHERE conversation_id = 'c'`);
        await admin.query(`DELETE FROM ${schema}.ctxpipe_conversations WHERE conversation_id = 'c'`);
        await openStore(schema).append("c", [message("x1"), message("x2"), message("x3"), message("x4")]);
      },
    },
    {
      name: "the rows written again by hand, the last kept one with the same number and text, an earlier one changed",
      change: async (schema) => {
        await admin.query(`DELETE FROM ${schema}.ctxpipe_messages WHERE conversation_id = 'c'`);
        await admin.query(`INSERT INTO ${schema}.ctxpipe_messages (conversation_id, seq, body) VALUES ('c', 1, $1), ('c', 2, $2)`, [
          JSON.stringify(message("changed")),
          JSON.stringify(message("m2")),
        ]);
      },
    },
    {
      name: "the tables dropped and made again by another store",
      change: async (schema) => {
        for (const table of ["messages", "summaries", "conversations"]) await admin.query(`DROP TABLE ${schema}.ctxpipe_${table}`);
        const other = openStore(schema);
        await other.append("c", [message("y1"), message("y2"), message("y3")]);
        await other.appendSummaries("c", summary("t1"));
      },
    },
    {
      name: "the tables truncated and the conversation written again",
      change: async (schema) => {
        await admin.query(`TRUNCATE ${schema}.ctxpipe_messages, ${schema}.ctxpipe_summaries, ${schema}.ctxpipe_conversations`);
        await openStore(schema).append("c", [message("z1"), message("z2"), message("z3")]);
      },
    },
    {
      name: "the summaries deleted, the messages kept",
      change: async (schema) => {
        await admin.query(`DELETE FROM ${schema}.ctxpipe_summaries WHERE conversation_id = 'c'`);
        await admin.query(`UPDATE ${schema}.ctxpipe_conversations SET next_summary_seq = 1 WHERE conversation_id = 'c'`);
        await openStore(schema).appendSummaries("c", [summary("u1"), summary("u2")]);
      },
    },
  ];

  test.for(scenarios)("$name", async ({ change }) => {
    const schema = server.uniqueSchema();
    const { store } = spiedStore(schema);
    await store.append("c", [message("m1"), message("m2")]);
    await store.appendSummaries("c", summary("s1"));
    await store.load("c");
    await change(schema);
    expect(await store.load("c")).toStrictEqual(await freshLoad(schema, "c"));
    await openStore(schema).append("c", message("after"));
    expect(await store.load("c")).toStrictEqual(await freshLoad(schema, "c"));
  });

  test("a corrupt new row stops the reload and leaves what the store kept as it was", async () => {
    const schema = server.uniqueSchema();
    const { store } = spiedStore(schema);
    await store.append("c", [message("m1"), message("m2")]);
    const first = await store.load("c");
    await admin.query(`INSERT INTO ${schema}.ctxpipe_messages (conversation_id, seq, body) VALUES ('c', 3, '{"role":"user"}')`);
    await expect(store.load("c")).rejects.toMatchObject({ code: STORE_CORRUPT, location: `${schema}.ctxpipe_messages`, line: 3 });
    await expect(store.load("c")).rejects.toMatchObject({ code: STORE_CORRUPT, line: 3 });
    await admin.query(`UPDATE ${schema}.ctxpipe_messages SET body = $1 WHERE conversation_id = 'c' AND seq = 3`, [JSON.stringify(message("m3"))]);
    const loaded = await store.load("c");
    expect(loaded.messages).toStrictEqual([message("m1"), message("m2"), message("m3")]);
    expect(loaded.messages[0]).toBe(first.messages[0]);
  });
});
