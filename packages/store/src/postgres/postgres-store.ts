// The ConversationStore for applications with several server processes sharing one PostgreSQL database.
// Each write is one SQL statement, so one transaction: it bumps the conversation's sequence counter
// (an upsert, which row-locks the conversation until commit) and inserts the rows under the numbers it
// got. Writes to one conversation from any number of processes therefore queue on that row lock and get
// consecutive numbers in commit order: a total order, no gaps, no interleaved batches.
//
// Loads are incremental: the store keeps each recently loaded conversation's parsed, frozen records and
// the last sequence number of each kind, and a reload reads only rows numbered higher (see #load for how
// it checks that what it kept still holds).
import { StoreClosedError } from "../errors/store-closed-error.js";
import pg from "pg";
import type { ConversationInfo, ConversationStore, LoadedConversation } from "../conversation-store.js";
import { StoreCorruptError } from "../errors/store-corrupt-error.js";
import type { OffloadedInfo, OffloadedRecord } from "../offloaded-record.js";
import type { StoredMessage, StoredSummaryRecord } from "../stored-message.js";
import type { FieldProblem } from "../validate-json-value.js";
import { deepFreeze } from "../jsonl/deep-freeze.js";
import { validateConversationId } from "../validate-conversation-id.js";
import { validateMessages } from "../validate-messages.js";
import { storedMessageProblems, storedSummaryRecordProblems } from "../validate-stored-message.js";
import { offloadedRecordProblems, validateOffloadedRecords } from "../validate-offloaded-records.js";
import { validateSummaryRecords } from "../validate-summary-records.js";
import type { TokenCountRecord } from "../token-count-record.js";
import { isTokenCount, validateTokenCountRecords } from "../validate-token-count-records.js";
import { inLoadOrder, type OrderedRow } from "./in-load-order.js";
import { type ParsedBody, RECORD_BODY_TYPES, UnparsableBody } from "./record-body-types.js";
import { type PostgresStoreOptions, type ResolvedPostgresStoreOptions, resolvePostgresStoreOptions } from "./postgres-store-options.js";
import { createTablesSql, type PostgresTable, type PostgresTables, postgresTables } from "./postgres-tables.js";

type Counter = "next_message_seq" | "next_summary_seq";

interface QueuedAppend {
  readonly table: PostgresTable;
  readonly counter: Counter;
  readonly bodies: ReadonlyArray<string>;
  resolve(): void;
  reject(error: unknown): void;
}

/** Appends grouped into one statement stop growing at this many rows. */
const MAX_GROUP_ROWS = 1000;

/** What a store keeps of one kind of record (messages or summaries) of a conversation it loaded. */
interface CachedRecords<T> {
  /** Parsed and deep-frozen, in sequence order; never handed out itself (loads get frozen copies). */
  readonly records: T[];
  /** Sequence number of the last record, 0 when there is none. */
  readonly lastSeq: string;
  /** When the last record's row was written (microseconds since the epoch, as text): tells a row recreated under the same number. */
  readonly lastCreated: string | undefined;
}

interface CachedConversation {
  readonly messages: CachedRecords<StoredMessage>;
  readonly summaries: CachedRecords<StoredSummaryRecord>;
}

interface LoadedRow extends OrderedRow {
  /** Null for the row numbered what the cache last holds: only its identity is checked. Parsed on arrival (RECORD_BODY_TYPES). */
  readonly body: ParsedBody | null;
  /** When the row was written, in microseconds since the epoch. */
  readonly created: string;
}

export class PostgresStore implements ConversationStore {
  readonly #options: ResolvedPostgresStoreOptions;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #tables: PostgresTables;
  #migration: Promise<void> | undefined;
  /** Appends waiting per conversation: one store writes a conversation's appends in call order. */
  readonly #queues = new Map<string, { readonly waiting: QueuedAppend[]; readonly drained: Promise<void> }>();
  readonly #pending = new Set<Promise<unknown>>();
  #closing: Promise<void> | undefined;
  /** Recently loaded conversations, least recently loaded first. */
  readonly #cache = new Map<string, CachedConversation>();
  /** One load at a time per conversation, so two loads never extend the same cache entry twice. */
  readonly #loading = new Map<string, Promise<unknown>>();

  constructor(options: PostgresStoreOptions) {
    this.#options = resolvePostgresStoreOptions(options);
    this.#tables = postgresTables(this.#options.schema, this.#options.tablePrefix);
    if (this.#options.pool !== undefined) {
      this.#pool = this.#options.pool;
      this.#ownsPool = false;
    } else {
      this.#pool = new pg.Pool({ connectionString: this.#options.connectionString });
      this.#ownsPool = true;
      // An idle connection dropped by the server must not crash the process; the next query reconnects.
      this.#pool.on("error", () => {});
    }
  }

  /** The tables this store uses, schema-qualified (`public.ctxpipe_messages`). */
  get tables(): { readonly conversations: string; readonly messages: string; readonly summaries: string; readonly offloaded: string; readonly tokenCounts: string } {
    return {
      conversations: this.#tables.conversations.name,
      messages: this.#tables.messages.name,
      summaries: this.#tables.summaries.name,
      offloaded: this.#tables.offloaded.name,
      tokenCounts: this.#tables.tokenCounts.name,
    };
  }

  append(conversationId: string, messages: StoredMessage | ReadonlyArray<StoredMessage>): Promise<void> {
    return this.#appendRecords(conversationId, this.#tables.messages, "next_message_seq", () => validateMessages(conversationId, messages));
  }

  appendSummaries(conversationId: string, records: StoredSummaryRecord | ReadonlyArray<StoredSummaryRecord>): Promise<void> {
    return this.#appendRecords(conversationId, this.#tables.summaries, "next_summary_seq", () => validateSummaryRecords(conversationId, records));
  }

  /** One statement; a handle the conversation already has is left as it is (ON CONFLICT DO NOTHING). */
  async appendOffloaded(conversationId: string, records: ReadonlyArray<OffloadedRecord>): Promise<void> {
    this.#assertOpen();
    validateConversationId(conversationId);
    const valid = validateOffloadedRecords(conversationId, records);
    if (valid.length === 0) return;
    return this.#track(
      (async () => {
        await this.#ready();
        await this.#pool.query(
          `INSERT INTO ${this.#tables.offloaded.sql} (conversation_id, handle, item_id, created_at, chars, body)
SELECT $1, batch.handle, batch.item_id, batch.created_at, batch.chars, batch.body
FROM unnest($2::text[], $3::text[], $4::text[], $5::integer[], $6::json[]) WITH ORDINALITY AS batch(handle, item_id, created_at, chars, body, position)
ORDER BY batch.position
ON CONFLICT (conversation_id, handle) DO NOTHING`,
          [
            conversationId,
            valid.map((record) => record.handle),
            valid.map((record) => record.itemId),
            valid.map((record) => record.createdAt),
            valid.map((record) => record.text.length),
            valid.map((record) => JSON.stringify(record)),
          ],
        );
      })(),
    );
  }

  async loadOffloaded(conversationId: string, handle: string): Promise<OffloadedRecord | undefined> {
    this.#assertOpen();
    validateConversationId(conversationId);
    return this.#track(
      (async () => {
        await this.#ready();
        const result = await this.#pool.query<{ position: string; body: ParsedBody }>({
          text: `SELECT position, body FROM ${this.#tables.offloaded.sql} WHERE conversation_id = $1 AND handle = $2`,
          values: [conversationId, handle],
          types: RECORD_BODY_TYPES,
        });
        const row = result.rows[0];
        if (row === undefined) return undefined;
        const [record] = parseRows(this.#tables.offloaded, [{ seq: row.position, body: row.body }], offloadedRecordProblems) as OffloadedRecord[];
        const { handle: stored, itemId, text, createdAt } = record!;
        return { handle: stored, itemId, text, createdAt };
      })(),
    );
  }

  async listOffloaded(conversationId: string): Promise<ReadonlyArray<OffloadedInfo>> {
    this.#assertOpen();
    validateConversationId(conversationId);
    return this.#track(
      (async () => {
        await this.#ready();
        const result = await this.#pool.query<{ handle: string; item_id: string; chars: number; created_at: string }>(
          `SELECT handle, item_id, chars, created_at FROM ${this.#tables.offloaded.sql} WHERE conversation_id = $1 ORDER BY position`,
          [conversationId],
        );
        return result.rows.map((row) => ({ handle: row.handle, itemId: row.item_id, chars: row.chars, createdAt: row.created_at }));
      })(),
    );
  }

  /**
   * One statement; a (encoding, key) the conversation already has keeps its first count (ON CONFLICT DO
   * NOTHING). Rows go in sorted by (encoding, key), so two processes storing overlapping batches take
   * the key locks in the same order and cannot deadlock.
   */
  async appendTokenCounts(conversationId: string, records: ReadonlyArray<TokenCountRecord>): Promise<void> {
    this.#assertOpen();
    validateConversationId(conversationId);
    const valid = validateTokenCountRecords(conversationId, records).sort((a, b) => compareStrings(a.encoding, b.encoding) || compareStrings(a.key, b.key));
    if (valid.length === 0) return;
    return this.#track(
      (async () => {
        await this.#ready();
        await this.#pool.query(
          `INSERT INTO ${this.#tables.tokenCounts.sql} (conversation_id, encoding, key, tokens)
SELECT $1, batch.encoding, batch.key, batch.tokens
FROM unnest($2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS batch(encoding, key, tokens, position)
ORDER BY batch.position
ON CONFLICT (conversation_id, encoding, key) DO NOTHING`,
          [conversationId, valid.map((record) => record.encoding), valid.map((record) => record.key), valid.map((record) => record.tokens)],
        );
      })(),
    );
  }

  /** One query; a row that is not a valid record (edited by hand) is skipped, as the counts are a cache. */
  async loadTokenCounts(conversationId: string): Promise<ReadonlyArray<TokenCountRecord>> {
    this.#assertOpen();
    validateConversationId(conversationId);
    return this.#track(
      (async () => {
        await this.#ready();
        // Rows as arrays, tokens as text: no object per row from the driver, and a bigint read exactly.
        const result = await this.#pool.query<[string, string, string]>({
          text: `SELECT encoding, key, tokens::text FROM ${this.#tables.tokenCounts.sql} WHERE conversation_id = $1`,
          values: [conversationId],
          rowMode: "array",
        });
        const records: TokenCountRecord[] = [];
        for (const [encoding, key, text] of result.rows) {
          const tokens = Number(text);
          if (isTokenCount(encoding, key, tokens)) records.push({ encoding, key, tokens });
        }
        return records;
      })(),
    );
  }

  /**
   * Loads a conversation. A conversation this store loaded before is read incrementally: only rows
   * numbered after what it kept, and the records it kept come back as the same frozen objects.
   */
  async load(conversationId: string): Promise<LoadedConversation> {
    this.#assertOpen();
    validateConversationId(conversationId);
    const previous = this.#loading.get(conversationId) ?? Promise.resolve();
    const next = previous.then(
      () => this.#load(conversationId),
      () => this.#load(conversationId),
    );
    this.#loading.set(conversationId, next);
    void next
      .finally(() => {
        if (this.#loading.get(conversationId) === next) this.#loading.delete(conversationId);
      })
      .catch(() => undefined);
    return this.#track(next);
  }

  async list(): Promise<ReadonlyArray<ConversationInfo>> {
    this.#assertOpen();
    return this.#track(this.#list());
  }

  /** Creates the schema and tables when missing. Runs by itself on first use unless `migrate: false`. */
  migrate(): Promise<void> {
    this.#migration ??= this.#migrate().catch((error: unknown) => {
      this.#migration = undefined; // let the next call try again
      throw error;
    });
    return this.#migration;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled([...this.#pending]);
      if (this.#ownsPool) await this.#pool.end();
    })();
    return this.#closing;
  }

  async #appendRecords(conversationId: string, table: PostgresTable, counter: Counter, validate: () => ReadonlyArray<object>): Promise<void> {
    this.#assertOpen();
    validateConversationId(conversationId);
    // Serialized now: a caller changing its objects after append cannot change what is written.
    const bodies = validate().map((record) => JSON.stringify(record));
    if (bodies.length === 0) return;
    return this.#track(
      new Promise<void>((resolve, reject) => {
        const append: QueuedAppend = { table, counter, bodies, resolve, reject };
        const queue = this.#queues.get(conversationId);
        if (queue !== undefined) {
          queue.waiting.push(append);
          return;
        }
        const waiting = [append];
        this.#queues.set(conversationId, { waiting, drained: this.#drain(conversationId, waiting) });
      }),
    );
  }

  /**
   * Writes a conversation's queued appends in call order. Appends that queued up while a statement was
   * in flight go out together as one statement (group commit), so callers appending concurrently pay one
   * round trip and one commit between them instead of one each.
   */
  async #drain(conversationId: string, waiting: QueuedAppend[]): Promise<void> {
    while (waiting.length > 0) {
      const group = [waiting.shift()!];
      let rows = group[0]!.bodies.length;
      while (waiting[0] !== undefined && waiting[0].table === group[0]!.table && rows + waiting[0].bodies.length <= MAX_GROUP_ROWS) {
        rows += waiting[0].bodies.length;
        group.push(waiting.shift()!);
      }
      await this.#writeGroup(conversationId, group);
    }
    this.#queues.delete(conversationId);
  }

  async #writeGroup(conversationId: string, group: ReadonlyArray<QueuedAppend>): Promise<void> {
    const { table, counter } = group[0]!;
    try {
      await this.#insert(conversationId, table, counter, group.flatMap((append) => append.bodies));
      for (const append of group) append.resolve();
      return;
    } catch (error) {
      // The server refused the statement, so nothing of it was committed: retry the appends one by one
      // so that only the one at fault fails. Any other error (a lost connection) leaves the outcome
      // unknown, and retrying could store a batch twice.
      if (group.length === 1 || !(error instanceof pg.DatabaseError)) {
        for (const append of group) append.reject(error);
        return;
      }
    }
    for (const append of group) {
      try {
        await this.#insert(conversationId, table, counter, append.bodies);
        append.resolve();
      } catch (error) {
        append.reject(error);
      }
    }
  }

  async #insert(conversationId: string, table: PostgresTable, counter: Counter, bodies: ReadonlyArray<string>): Promise<void> {
    await this.#ready();
    const conversations = this.#tables.conversations.sql;
    // Taking the numbers and inserting the rows in one statement makes the batch atomic and costs one
    // round trip; the conversation row stays locked until the statement commits.
    await this.#pool.query(
      `WITH allocated AS (
  INSERT INTO ${conversations} AS c (conversation_id, ${counter}, updated_at) VALUES ($1, $2::bigint + 1, clock_timestamp())
  ON CONFLICT (conversation_id) DO UPDATE SET ${counter} = c.${counter} + $2::bigint, updated_at = clock_timestamp()
  RETURNING c.${counter} - $2::bigint AS first_seq, c.updated_at
)
INSERT INTO ${table.sql} (conversation_id, seq, body, created_at)
SELECT $1, allocated.first_seq + batch.position - 1, batch.body, allocated.updated_at
FROM allocated, unnest($3::json[]) WITH ORDINALITY AS batch(body, position)`,
      [conversationId, bodies.length, bodies],
    );
  }

  async #load(conversationId: string): Promise<LoadedConversation> {
    // Appends this store was asked to make before the load are part of what it returns.
    await this.#queues.get(conversationId)?.drained;
    await this.#ready();
    const cached = this.#cache.get(conversationId);
    let rows = await this.#queryFrom(conversationId, cached);
    let base = cached;
    if (cached !== undefined && !stillHolds(cached, rows)) {
      // The last row it kept is gone or was written again (a conversation deleted and recreated, a
      // table restored from another state): read everything again.
      rows = await this.#queryFrom(conversationId, undefined);
      base = undefined;
    }
    // The row numbered what the cache last holds came to be checked, not read (told by its number: a
    // body holding JSON null is null too).
    const messageRows = rows.filter((row) => row.kind === 0 && row.seq !== base?.messages.lastSeq) as Array<LoadedRow & { body: ParsedBody }>;
    const summaryRows = rows.filter((row) => row.kind === 1 && row.seq !== base?.summaries.lastSeq) as Array<LoadedRow & { body: ParsedBody }>;
    // Parsed before the cache changes: a corrupt row throws and leaves it as it was.
    const messages = parseRows(this.#tables.messages, messageRows, storedMessageProblems).map(deepFreeze) as StoredMessage[];
    const summaries = parseRows(this.#tables.summaries, summaryRows, storedSummaryRecordProblems).map(deepFreeze) as StoredSummaryRecord[];
    const entry: CachedConversation = {
      messages: extend(base?.messages, messages, messageRows),
      summaries: extend(base?.summaries, summaries, summaryRows),
    };
    this.#remember(conversationId, entry);
    return Object.freeze({
      conversationId,
      messages: Object.freeze(entry.messages.records.slice()),
      summaries: Object.freeze(entry.summaries.records.slice()),
      warnings: Object.freeze([]),
    });
  }

  /**
   * One statement, one snapshot (messages and summaries consistent with each other): the rows numbered
   * from the last one `cached` holds (that one without its body: only its identity is checked; both are
   * primary-key lookups), in (kind, seq) order. Without a cache it reads every row. No ORDER BY: the
   * server would sort every body before sending the first row (on disk past work_mem, 32 MB at 10,000
   * messages), while unsorted rows stream as the server reads them and are parsed as they arrive; the
   * rows come in order nearly always, and are sorted here when not. Counting the rows before the last kept
   * one would also notice a row deleted in the middle by hand, but costs a scan of the whole
   * conversation (9 ms of a 10,000-message reload's 10): the store trusts that ctxpipe numbers rows
   * without gaps and never deletes single rows.
   */
  async #queryFrom(conversationId: string, cached: CachedConversation | undefined): Promise<LoadedRow[]> {
    const messages = this.#tables.messages.sql;
    const summaries = this.#tables.summaries.sql;
    const created = "(extract(epoch FROM created_at) * 1000000)::bigint::text";
    const result = await this.#pool.query<LoadedRow>({
      text: `SELECT 0 AS kind, seq, CASE WHEN seq = $2 THEN NULL ELSE body END AS body, ${created} AS created FROM ${messages} WHERE conversation_id = $1 AND seq >= $2
UNION ALL
SELECT 1 AS kind, seq, CASE WHEN seq = $3 THEN NULL ELSE body END AS body, ${created} AS created FROM ${summaries} WHERE conversation_id = $1 AND seq >= $3`,
      values: [conversationId, cached?.messages.lastSeq ?? "0", cached?.summaries.lastSeq ?? "0"],
      types: RECORD_BODY_TYPES,
    });
    return inLoadOrder(result.rows);
  }

  #remember(conversationId: string, entry: CachedConversation): void {
    this.#cache.delete(conversationId);
    if (this.#options.cachedConversations === 0) return;
    this.#cache.set(conversationId, entry);
    if (this.#cache.size > this.#options.cachedConversations) this.#cache.delete(this.#cache.keys().next().value as string);
  }

  async #list(): Promise<ReadonlyArray<ConversationInfo>> {
    await this.#ready();
    const result = await this.#pool.query<{ conversation_id: string; message_count: string; updated_at: Date }>(
      `SELECT conversation_id, next_message_seq - 1 AS message_count, updated_at FROM ${this.#tables.conversations.sql}`,
    );
    return result.rows
      .map((row) => ({ conversationId: row.conversation_id, messageCount: Number(row.message_count), updatedAt: row.updated_at.toISOString() }))
      .sort((a, b) => (a.conversationId < b.conversationId ? -1 : a.conversationId > b.conversationId ? 1 : 0));
  }

  #ready(): Promise<void> {
    return this.#options.migrate ? this.migrate() : Promise.resolve();
  }

  async #migrate(): Promise<void> {
    const tables = [this.#tables.conversations, this.#tables.messages, this.#tables.summaries, this.#tables.offloaded, this.#tables.tokenCounts];
    // Check first: a least-privileged application user may use existing tables without the right to create them.
    const present = await this.#pool.query<{ present: boolean }>(`SELECT to_regclass(name) IS NOT NULL AS present FROM unnest($1::text[]) AS name`, [
      tables.map((table) => table.sql),
    ]);
    if (present.rows.every((row) => row.present)) return;
    const client = await this.#pool.connect();
    try {
      await client.query("BEGIN");
      // Several processes starting at once would otherwise race on CREATE TABLE IF NOT EXISTS.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('ctxpipe store migration'))");
      const schema = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [this.#options.schema]);
      if (schema.rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.#tables.schemaSql}`);
      for (const statement of createTablesSql(this.#tables)) await client.query(statement);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  #assertOpen(): void {
    if (this.#closing !== undefined) throw new StoreClosedError("This PostgresStore");
  }

  #track<T>(operation: Promise<T>): Promise<T> {
    this.#pending.add(operation);
    const forget = () => this.#pending.delete(operation);
    operation.then(forget, forget);
    return operation;
  }
}

/**
 * Whether the records `cached` holds are still the conversation's first ones: the row numbered like the
 * last one it holds is there and was written at the same moment (a row written again, even with the
 * same number and text, has another created_at).
 */
function stillHolds(cached: CachedConversation, rows: ReadonlyArray<LoadedRow>): boolean {
  const holds = (kept: CachedRecords<unknown>, kind: number) => {
    if (kept.lastSeq === "0") return true;
    const boundary = rows.find((row) => row.kind === kind);
    return boundary !== undefined && boundary.seq === kept.lastSeq && boundary.body === null && boundary.created === kept.lastCreated;
  };
  return holds(cached.messages, 0) && holds(cached.summaries, 1);
}

/** The cached records with `added` appended (the cached array grows in place: it is never handed out). */
function extend<T>(base: CachedRecords<T> | undefined, added: T[], rows: ReadonlyArray<LoadedRow>): CachedRecords<T> {
  const last = rows.at(-1);
  if (base === undefined) return { records: added, lastSeq: last?.seq ?? "0", lastCreated: last?.created };
  if (last === undefined) return base;
  for (const record of added) base.records.push(record);
  return { records: base.records, lastSeq: last.seq, lastCreated: last.created };
}

/** Checks loaded rows (their bodies parsed on arrival); a row ctxpipe did not write stops the load with the table and sequence number. */
function parseRows(table: PostgresTable, rows: ReadonlyArray<{ seq: string; body: ParsedBody }>, shapeProblems: (record: unknown) => FieldProblem[]): unknown[] {
  return rows.map((row) => {
    const record = row.body;
    if (record instanceof UnparsableBody) {
      // The json column only holds valid JSON; this would take a change of column type.
      throw new StoreCorruptError(table.name, Number(row.seq), `not JSON (${record.reason})`, { cause: record.cause });
    }
    const problem = shapeProblems(record)[0];
    if (problem !== undefined) throw new StoreCorruptError(table.name, Number(row.seq), `not a record ctxpipe wrote: ${problem.field || "the record"} ${problem.message}`);
    return record;
  });
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
