// Row e of the issue-24 table: one message appended to a long conversation, then the conversation
// loaded again, as a loop does at the start of every turn. "kept" reloads with the store object that
// loaded it before (what a running server does; PostgresStore then reads only the new rows);
// "new store" loads with a new store object each time, which reads everything (what every reload cost
// before this issue). The rows read and the messages handed back as the same objects are counted.
import type { ConversationStore, StoredMessage } from "@ctxpipe/store";
import { type TurnFigures, turnFigures } from "./turn-figures.js";

export interface StoreReloadOptions {
  /** The store that appends (and, for "kept", reloads). */
  readonly store: ConversationStore;
  /** For "new store": a new store object on the same data, closed after its load. */
  readonly openStore?: () => ConversationStore;
  readonly conversationId: string;
  readonly runs: number;
  /** The message appended before reload `run`. */
  readonly message: (run: number) => StoredMessage;
  /** Rows the store's queries have returned so far, when the store can say (PostgreSQL through a counting pool). */
  readonly rowsRead?: () => number;
}

export interface StoreReloadFigures {
  readonly reload: TurnFigures;
  /** Messages the conversation had at the last reload. */
  readonly messages: number;
  /** Median rows read per reload; undefined when the store cannot say. */
  readonly rowsRead: number | undefined;
  /** Median share of the previous load's messages handed back as the same objects. */
  readonly sameObjects: number;
}

export async function storeReloadBenchmark(options: StoreReloadOptions): Promise<StoreReloadFigures> {
  const { store, conversationId } = options;
  let previous = (await store.load(conversationId)).messages;
  const rows: number[] = [];
  const same: number[] = [];
  const times: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    await store.append(conversationId, options.message(run));
    const reader = options.openStore?.() ?? store;
    const rowsBefore = options.rowsRead?.() ?? 0;
    const started = performance.now();
    const loaded = (await reader.load(conversationId)).messages;
    times.push(performance.now() - started);
    if (options.rowsRead !== undefined) rows.push(options.rowsRead() - rowsBefore);
    if (reader !== store) await reader.close();
    if (loaded.length !== previous.length + 1) throw new Error(`reload ${run} returned ${loaded.length} messages, expected ${previous.length + 1}`);
    const last = loaded.at(-1)!;
    if (last.id !== options.message(run).id) throw new Error(`reload ${run} ends with ${last.id}, expected ${options.message(run).id}`);
    same.push(previous.filter((message, index) => loaded[index] === message).length / previous.length);
    previous = loaded;
  }
  return {
    reload: turnFigures(times),
    messages: previous.length,
    rowsRead: rows.length === 0 ? undefined : turnFigures(rows).median,
    sameObjects: turnFigures(same).median,
  };
}
