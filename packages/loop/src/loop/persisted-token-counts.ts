// A conversation's token counts kept in the loop's store, so that a process that never built the
// conversation (another host behind a load balancer, a restart) does not tokenize its history again.
// The counts are a cache: a record that cannot be loaded or appended costs only counting its text again,
// so nothing here ever fails a turn.
import { type ConversationStore, supportsTokenCounts } from "@ctxpipe/store";
import { type ModelTokenizer, TokenCountMemo, type TokenCountRecord } from "@ctxpipe/tokenizers";

/** Where one conversation's counts are read from and written to. */
export interface TokenCountSource {
  load(): Promise<ReadonlyArray<unknown>>;
  append(records: ReadonlyArray<TokenCountRecord>): Promise<void>;
}

/** The store's counts of `conversationId`, or undefined for a store that keeps none. */
export function storeTokenCounts(store: ConversationStore | undefined, conversationId: string | undefined): TokenCountSource | undefined {
  if (store === undefined || conversationId === undefined || !supportsTokenCounts(store)) return undefined;
  return {
    load: () => store.loadTokenCounts(conversationId),
    append: (records) => store.appendTokenCounts(conversationId, records),
  };
}

/**
 * The counts of one conversation's pipeline: a memo under its tokenizer, loaded from the source once
 * before the first build, and the counts each build made appended after it (one append per build, only
 * counts the source does not have yet).
 */
export class PersistedTokenCounts {
  readonly #source: TokenCountSource;
  readonly #memo: TokenCountMemo;
  #loaded: Promise<void> | undefined;
  /** Counts an append failed to keep: offered again with the next build's. */
  #unsaved: TokenCountRecord[] = [];

  constructor(tokenizer: ModelTokenizer, source: TokenCountSource) {
    this.#source = source;
    this.#memo = new TokenCountMemo(tokenizer);
  }

  /** Counts like the tokenizer given, through the memo (calibrating an approximation keeps the memo). */
  get tokenizer(): ModelTokenizer {
    return this.#memo.tokenizer;
  }

  /** Resolves once the source's counts are in the memo; a source that fails to load leaves it empty. */
  ready(): Promise<void> {
    this.#loaded ??= this.#source.load().then(
      (records) => {
        // Malformed records are skipped by the memo: a torn store never stops a build.
        this.#memo.add(Array.isArray(records) ? records : []);
      },
      () => undefined,
    );
    return this.#loaded;
  }

  /** Appends the counts made since the last save. Never rejects: a failed append is tried again next time. */
  async save(): Promise<void> {
    const records = [...this.#unsaved, ...this.#memo.takeNew()];
    this.#unsaved = [];
    if (records.length === 0) return;
    try {
      await this.#source.append(records);
    } catch {
      this.#unsaved = records.concat(this.#unsaved);
    }
  }
}
