// The five tables of the PostgreSQL store and the SQL that creates them.
//
// Record bodies are `json`, not `jsonb`: json keeps the text exactly as written (key order, number
// spelling, "\u0000" and lone surrogates, which jsonb refuses), so load returns what was appended, and
// PostgreSQL still checks the text is JSON and `body->>'role'` works in ad-hoc queries.

export interface PostgresTables {
  /** The schema's name, quoted for SQL. */
  readonly schemaSql: string;
  /** One row per conversation: the next sequence numbers (the per-conversation lock) and the last append time. */
  readonly conversations: PostgresTable;
  readonly messages: PostgresTable;
  readonly summaries: PostgresTable;
  /** Texts builds left out of their requests, one row per (conversation, handle). */
  readonly offloaded: PostgresTable;
  /** How many tokens an encoding makes of a text, one row per (conversation, encoding, key): a cache. */
  readonly tokenCounts: PostgresTable;
}

export interface PostgresTable {
  /** Quoted and schema-qualified, for SQL. */
  readonly sql: string;
  /** `schema.name`, for errors and warnings. */
  readonly name: string;
  readonly schema: string;
  readonly table: string;
}

export function postgresTables(schema: string, prefix: string): PostgresTables {
  const table = (suffix: string): PostgresTable => ({
    sql: `${quoteIdentifier(schema)}.${quoteIdentifier(prefix + suffix)}`,
    name: `${schema}.${prefix}${suffix}`,
    schema,
    table: prefix + suffix,
  });
  return { schemaSql: quoteIdentifier(schema), conversations: table("conversations"), messages: table("messages"), summaries: table("summaries"), offloaded: table("offloaded"), tokenCounts: table("token_counts") };
}

/** Statements creating whatever is missing; each is idempotent. */
export function createTablesSql(tables: PostgresTables): string[] {
  const records = (table: PostgresTable) => `CREATE TABLE IF NOT EXISTS ${table.sql} (
  conversation_id text NOT NULL,
  seq bigint NOT NULL,
  body json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (conversation_id, seq)
)`;
  return [
    `CREATE TABLE IF NOT EXISTS ${tables.conversations.sql} (
  conversation_id text PRIMARY KEY,
  next_message_seq bigint NOT NULL DEFAULT 1,
  next_summary_seq bigint NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
    records(tables.messages),
    records(tables.summaries),
    // The record is json for the same reason as above (a tool's output may hold "\u0000" or a lone
    // surrogate, which a text column refuses or changes, and which ->> cannot extract); item_id,
    // created_at and chars (the text's UTF-16 length) are copied out so listing needs no parse.
    `CREATE TABLE IF NOT EXISTS ${tables.offloaded.sql} (
  conversation_id text NOT NULL,
  handle text NOT NULL,
  position bigint GENERATED ALWAYS AS IDENTITY,
  item_id text NOT NULL,
  created_at text NOT NULL,
  chars integer NOT NULL,
  body json NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (conversation_id, handle)
)`,
    // A cache beside the log: no created_at, no sequence; the first row of a key wins (ON CONFLICT DO NOTHING).
    `CREATE TABLE IF NOT EXISTS ${tables.tokenCounts.sql} (
  conversation_id text NOT NULL,
  encoding text NOT NULL,
  key text NOT NULL,
  tokens bigint NOT NULL,
  PRIMARY KEY (conversation_id, encoding, key)
)`,
  ];
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
