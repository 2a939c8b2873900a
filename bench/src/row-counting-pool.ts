// Rows a PostgreSQL pool's queries returned, counted at the pool: how the reload row shows that a
// store reads only the new rows after one append.
import { createRequire } from "node:module";
import type { PostgresStoreOptions } from "@ctxpipe/store/postgres";

/** pg.Pool, as PostgresStore takes it (the bench has pg, not its types). */
export type Pool = Extract<PostgresStoreOptions, { readonly pool: unknown }>["pool"];

export interface RowCountingPool {
  readonly pool: Pool;
  /** Rows every query through `pool.query` has returned so far. */
  rowsRead(): number;
}

type QueryResult = { readonly rows?: ReadonlyArray<unknown> };

/** A new pg.Pool on `connectionString` that counts the rows of every `pool.query` result (a multi-statement query counts each result). */
export function rowCountingPool(connectionString: string): RowCountingPool {
  const pg = createRequire(import.meta.url)("pg") as { Pool: new (config: { connectionString: string; max: number }) => Pool };
  const pool = new pg.Pool({ connectionString, max: 2 });
  let rows = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<QueryResult | QueryResult[]>;
  const counted = async (...args: unknown[]) => {
    const result = await query(...args);
    for (const each of Array.isArray(result) ? result : [result]) rows += each.rows?.length ?? 0;
    return result;
  };
  (pool as { query: unknown }).query = counted;
  return { pool, rowsRead: () => rows };
}
