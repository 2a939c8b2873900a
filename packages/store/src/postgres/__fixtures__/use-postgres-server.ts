// Gives a test file its own PostgreSQL server for the file's lifetime and a fresh schema per store, so
// tests never see each other's rows. afterAll stops the server even when tests failed.
import { afterAll, beforeAll } from "vitest";
import { type PostgresTestServer, startPostgresServer } from "./start-postgres-server.js";

export interface PostgresTestContext {
  readonly connectionString: string;
  /** A schema name no other test of this file uses. */
  uniqueSchema(): string;
}

export function usePostgresServer(): PostgresTestContext {
  let server: PostgresTestServer | undefined;
  let next = 0;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);
  return {
    get connectionString() {
      if (server === undefined) throw new Error("The test PostgreSQL server did not start (see the beforeAll error).");
      return server.connectionString;
    },
    uniqueSchema: () => `test_${++next}`,
  };
}
