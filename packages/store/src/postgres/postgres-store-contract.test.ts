// PostgresStore passes the contract every ConversationStore passes, against a real server; each test
// gets a schema of its own, and a reopen is a new store (and pool) on that schema.
import type { ConversationStore } from "../conversation-store.js";
import { describeStoreContract } from "../testing/index.js";
import { usePostgresServer } from "./__fixtures__/use-postgres-server.js";
import { PostgresStore } from "./postgres-store.js";

const server = usePostgresServer();
const schemas = new WeakMap<ConversationStore, string>();

function open(schema: string): PostgresStore {
  const store = new PostgresStore({ connectionString: server.connectionString, schema });
  schemas.set(store, schema);
  return store;
}

describeStoreContract("PostgresStore", {
  create: async () => open(server.uniqueSchema()),
  reopen: async (store) => {
    await store.close();
    return open(schemas.get(store)!);
  },
});
