// Options of PostgresStore, checked up front so a typo in a schema name fails at construction with the
// field named, not at the first append in production.
import { parsePluginOptions } from "@ctxpipe/core";
import type pg from "pg";
import { z } from "zod";

interface PostgresStoreCommonOptions {
  /** Schema holding the tables; created if missing when `migrate` is on. Default "public". */
  readonly schema?: string;
  /** Prefix of the five table names (`<prefix>conversations`, `<prefix>messages`, `<prefix>summaries`, `<prefix>offloaded`, `<prefix>token_counts`). Default "ctxpipe_". */
  readonly tablePrefix?: string;
  /** Create the schema and tables on first use when they are missing. Default true; turn off when migrations run elsewhere. */
  readonly migrate?: boolean;
  /**
   * How many conversations' parsed records the store keeps between loads, least recently loaded dropped
   * first (default 128). A kept conversation reloads by reading only its new rows, and its records come
   * back as the same frozen objects; 0 reads every row on every load.
   */
  readonly cachedConversations?: number;
}

export type PostgresStoreOptions =
  | (PostgresStoreCommonOptions & {
      /** A pool the application owns; the store never ends it. */
      readonly pool: pg.Pool;
    })
  | (PostgresStoreCommonOptions & {
      /** The store creates a pool of its own and ends it on close(). */
      readonly connectionString: string;
    });

export interface ResolvedPostgresStoreOptions {
  readonly pool?: pg.Pool;
  readonly connectionString?: string;
  readonly schema: string;
  readonly tablePrefix: string;
  readonly migrate: boolean;
  readonly cachedConversations: number;
}

// Lowercase identifiers only: they need no quoting in psql, and PostgreSQL truncates names past 63 bytes,
// which must not happen silently to `<prefix>conversations`.
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const LONGEST_TABLE_SUFFIX = "conversations".length;

const poolSchema = z.custom<pg.Pool>(
  (value) => typeof value === "object" && value !== null && ["query", "connect", "end"].every((method) => typeof (value as Record<string, unknown>)[method] === "function"),
  "expected a pg.Pool",
);

const optionsSchema = z
  .object({
    pool: poolSchema.optional(),
    connectionString: z.string().min(1).optional(),
    schema: z.string().regex(IDENTIFIER, "lowercase letters, digits and _, not starting with a digit").max(63).default("public"),
    tablePrefix: z
      .string()
      .regex(/^([a-z_][a-z0-9_]*)?$/, "lowercase letters, digits and _, not starting with a digit")
      .max(63 - LONGEST_TABLE_SUFFIX)
      .default("ctxpipe_"),
    migrate: z.boolean().default(true),
    cachedConversations: z.number().int().nonnegative().default(128),
  })
  .strict()
  .refine((options) => (options.pool === undefined) !== (options.connectionString === undefined), {
    message: "give exactly one of pool and connectionString",
    path: ["pool"],
  });

export function resolvePostgresStoreOptions(options: PostgresStoreOptions): ResolvedPostgresStoreOptions {
  const parsed = parsePluginOptions("PostgresStore", optionsSchema, options);
  return {
    ...(parsed.pool === undefined ? {} : { pool: parsed.pool }),
    ...(parsed.connectionString === undefined ? {} : { connectionString: parsed.connectionString }),
    schema: parsed.schema,
    tablePrefix: parsed.tablePrefix,
    migrate: parsed.migrate,
    cachedConversations: parsed.cachedConversations,
  };
}
