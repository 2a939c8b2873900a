// @ctxpipe/store/postgres: the store for several processes sharing one PostgreSQL database. A separate
// entry point so that applications on the JSON-lines store never load `pg`.
export { PostgresStore } from "./postgres-store.js";
export type { PostgresStoreOptions } from "./postgres-store-options.js";
