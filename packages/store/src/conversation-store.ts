// What every store provides. The JSON-lines store and the PostgreSQL store implement it and pass the
// same contract tests (@ctxpipe/store/testing), which a third-party store can run too.
import type { OffloadedInfo, OffloadedRecord } from "./offloaded-record.js";
import type { StoredMessage, StoredSummaryRecord } from "./stored-message.js";
import type { TokenCountRecord } from "./token-count-record.js";

/** Something the store noticed while loading and worked around, such as a torn last line after a crash. */
export interface StoreWarning {
  readonly message: string;
  /** The file (JSON-lines store) or table (PostgreSQL store) concerned. */
  readonly location: string;
  /** 1-based line of the file, or the row's sequence number. */
  readonly line?: number;
}

export interface LoadedConversation {
  readonly conversationId: string;
  /** Every message, in the order the store acknowledged them. Empty for an unknown conversation. */
  readonly messages: ReadonlyArray<StoredMessage>;
  /** Every summary record, in the order they were appended. */
  readonly summaries: ReadonlyArray<StoredSummaryRecord>;
  readonly warnings: ReadonlyArray<StoreWarning>;
}

export interface ConversationInfo {
  readonly conversationId: string;
  readonly messageCount: number;
  /** When the last record was appended (ISO 8601), if known. */
  readonly updatedAt?: string;
}

export interface AppendOptions {
  /**
   * Called once the messages are where a load (in any process) finds them, before they are durable:
   * a caller may load and build meanwhile, and wait for the append before acting on what it built.
   * A store that cannot tell the two apart (a database commit is both) need not call it. Called at
   * most once, never after the append rejected before writing.
   */
  readonly onWritten?: () => void;
}

export interface ConversationStore {
  /**
   * Appends one message or several, in order. Resolves once they are durable; all of a batch or none
   * of it is stored. Rejects with StoreInputError (naming the index, id and field) before writing
   * anything when a message is invalid.
   */
  append(conversationId: string, messages: StoredMessage | ReadonlyArray<StoredMessage>, options?: AppendOptions): Promise<void>;
  /** Appends summary records (what report.compression.records holds), durable when it resolves. */
  appendSummaries(conversationId: string, records: StoredSummaryRecord | ReadonlyArray<StoredSummaryRecord>): Promise<void>;
  /** Loads a conversation. Rejects with StoreCorruptError naming the file or table and the line or row. */
  load(conversationId: string): Promise<LoadedConversation>;
  /** Conversations with at least one record, ordered by id. */
  list(): Promise<ReadonlyArray<ConversationInfo>>;
  /** Waits for pending appends and releases files or connections. */
  close(): Promise<void>;
  /**
   * Keeps whole texts a build left out of its request (report.offloaded), durable when it resolves.
   * Idempotent by handle: a handle already stored (or given twice) is kept once, the first text.
   * Rejects with StoreInputError naming the index, handle and field before writing anything.
   * Optional so that stores written before it still compile: without it (and loadOffloaded) the loops
   * keep offloaded text in memory only, and retrieveContextTool refuses the store (supportsOffloading).
   */
  appendOffloaded?(conversationId: string, records: ReadonlyArray<OffloadedRecord>): Promise<void>;
  /** The record stored under `handle`, or undefined. */
  loadOffloaded?(conversationId: string, handle: string): Promise<OffloadedRecord | undefined>;
  /** Every handle stored for the conversation, in the order first stored, without the texts. */
  listOffloaded?(conversationId: string): Promise<ReadonlyArray<OffloadedInfo>>;
  /**
   * Keeps token counts (a cache: losing records costs only recounting, so it need not be durable when
   * it resolves). Idempotent per (encoding, key): a pair already stored (or given twice) keeps its first
   * record. Rejects with StoreInputError naming the index, key and field before writing anything.
   * Optional like the offloading methods: without it (and loadTokenCounts) a new process counts again.
   */
  appendTokenCounts?(conversationId: string, records: ReadonlyArray<TokenCountRecord>): Promise<void>;
  /** Every record kept for the conversation, in any order; [] for an unknown conversation. A torn or unreadable record is skipped, never an error. */
  loadTokenCounts?(conversationId: string): Promise<ReadonlyArray<TokenCountRecord>>;
}

