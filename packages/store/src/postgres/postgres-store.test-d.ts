// The public surface of @ctxpipe/store/postgres: a ConversationStore, built from a pool or a connection string.
import type pg from "pg";
import { expectTypeOf, test } from "vitest";
import type { ConversationStore } from "../conversation-store.js";
import type { PostgresStore, PostgresStoreOptions } from "./index.js";

test("PostgresStore is a ConversationStore with migrate and its table names", () => {
  expectTypeOf<PostgresStore>().toExtend<ConversationStore>();
  expectTypeOf<PostgresStore["migrate"]>().toEqualTypeOf<() => Promise<void>>();
  expectTypeOf<PostgresStore["tables"]>().toEqualTypeOf<{ readonly conversations: string; readonly messages: string; readonly summaries: string; readonly offloaded: string; readonly tokenCounts: string }>();
});

test("options take a pool or a connection string, plus schema, tablePrefix, migrate and cachedConversations", () => {
  expectTypeOf<{ connectionString: string }>().toExtend<PostgresStoreOptions>();
  expectTypeOf<{ pool: pg.Pool; schema: string; tablePrefix: string; migrate: boolean; cachedConversations: number }>().toExtend<PostgresStoreOptions>();
  expectTypeOf<{ schema: string }>().not.toExtend<PostgresStoreOptions>();
  expectTypeOf<{ connectionString: number }>().not.toExtend<PostgresStoreOptions>();
});
