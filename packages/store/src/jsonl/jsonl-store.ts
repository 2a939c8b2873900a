// The embedded store: one append-only JSON-lines file per conversation in one directory, no server.
// See log-record.ts for the format, group-commit-writer.ts for durability and with-file-lock.ts for
// how processes of one machine share a conversation.
import { parsePluginOptions } from "@ctxpipe/core";
import { StoreClosedError } from "../errors/store-closed-error.js";
import { mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import type { AppendOptions, ConversationInfo, ConversationStore, LoadedConversation, StoreWarning } from "../conversation-store.js";
import type { OffloadedInfo, OffloadedRecord } from "../offloaded-record.js";
import type { StoredMessage, StoredSummaryRecord } from "../stored-message.js";
import type { TokenCountRecord } from "../token-count-record.js";
import { validateConversationId } from "../validate-conversation-id.js";
import { validateMessages } from "../validate-messages.js";
import { validateOffloadedRecords } from "../validate-offloaded-records.js";
import { validateSummaryRecords } from "../validate-summary-records.js";
import { validateTokenCountRecords } from "../validate-token-count-records.js";
import { conversationFileName, conversationIdFromFileName } from "./conversation-file-name.js";
import { GroupCommitWriter, type LogTarget } from "./group-commit-writer.js";
import { encodeRecordLines } from "./log-record.js";
import { LogReader } from "./log-reader.js";
import { encodeOffloadHeaderLine, OFFLOAD_DIRECTORY } from "./offload-log.js";
import { OffloadReader } from "./offload-reader.js";
import { syncDirectory } from "./sync-directory.js";
import { encodeTokenCountHeaderLine, encodeTokenCountLines, TOKEN_COUNT_DIRECTORY } from "./token-count-log.js";
import { TokenCountReader } from "./token-count-reader.js";

export interface JsonlStoreOptions {
  /** Where the logs live; created (durably) on the first append. */
  readonly directory: string;
  /**
   * "fsync" (default): an append resolves once its lines are on disk. "none": once they are in the
   * operating system's cache, which survives a killed process but not a power loss.
   */
  readonly durability?: "fsync" | "none";
  /** Told when an append repaired a torn last line or took over the lock of a dead process. */
  readonly onWarning?: (warning: StoreWarning) => void;
  /** How long an append waits for another live process's lock before failing (default 10 000). */
  readonly lockTimeoutMs?: number;
}

const optionsSchema = z.strictObject({
  directory: z.string().min(1),
  durability: z.enum(["fsync", "none"]).optional(),
  onWarning: z.custom<(warning: StoreWarning) => void>((value) => typeof value === "function", "must be a function").optional(),
  lockTimeoutMs: z.number().int().positive().optional(),
});

const LOCK_DIRECTORY = ".locks";

export class JsonlStore implements ConversationStore {
  readonly directory: string;
  readonly #writer: GroupCommitWriter;
  /** Writes token counts without fsync whatever `durability` says: they are a cache. */
  readonly #countWriter: GroupCommitWriter;
  readonly #reader = new LogReader();
  readonly #offloadReader = new OffloadReader();
  readonly #countReader = new TokenCountReader();
  #directoryReady: Promise<string> | undefined;
  #countsDirectoryReady: Promise<string> | undefined;
  #closed = false;

  constructor(options: JsonlStoreOptions) {
    const parsed = parsePluginOptions("JsonlStore", optionsSchema, options);
    this.directory = resolve(parsed.directory);
    const durable = (parsed.durability ?? "fsync") === "fsync";
    const writerOptions = {
      lockTimeoutMs: parsed.lockTimeoutMs ?? 10_000,
      onWarning: parsed.onWarning ?? (() => undefined),
      prepareDirectory: () => {
        this.#directoryReady ??= createDirectory(this.directory, durable).catch((error: unknown) => {
          this.#directoryReady = undefined;
          throw error;
        });
        return this.#directoryReady;
      },
    };
    this.#writer = new GroupCommitWriter({ ...writerOptions, durable });
    this.#countWriter = new GroupCommitWriter({
      ...writerOptions,
      durable: false,
      // Made on the first count written, so a store that never keeps counts has no such directory.
      prepareDirectory: () => {
        this.#countsDirectoryReady ??= writerOptions
          .prepareDirectory()
          .then(async (directory) => {
            await mkdir(join(directory, TOKEN_COUNT_DIRECTORY), { recursive: true });
            return directory;
          })
          .catch((error: unknown) => {
            this.#countsDirectoryReady = undefined;
            throw error;
          });
        return this.#countsDirectoryReady;
      },
    });
  }

  /** Resolves once the lines are durable (with `durability: "fsync"`); `options.onWritten` is called once they are in the file, before the fsync. */
  append(conversationId: string, messages: StoredMessage | ReadonlyArray<StoredMessage>, options?: AppendOptions): Promise<void> {
    return this.#append(conversationId, "message", () => validateMessages(conversationId, messages), options?.onWritten);
  }

  appendSummaries(conversationId: string, records: StoredSummaryRecord | ReadonlyArray<StoredSummaryRecord>): Promise<void> {
    return this.#append(conversationId, "summary", () => validateSummaryRecords(conversationId, records));
  }

  /**
   * Appends to the conversation's offload log (.offloaded/<log file name>), leaving out handles it
   * already holds; durable when it resolves, like append.
   */
  async appendOffloaded(conversationId: string, records: ReadonlyArray<OffloadedRecord>): Promise<void> {
    if (this.#closed) throw new StoreClosedError(`The store in ${this.directory}`);
    validateConversationId(conversationId);
    const valid = validateOffloadedRecords(conversationId, records);
    if (valid.length === 0) return;
    const target = this.#offloadTarget(conversationId);
    await this.#writer.idle(target.logPath);
    const stored = new Set((await this.#offloadReader.list(target.logPath, conversationId)).map((info) => info.handle));
    // Two processes may still both write a handle; readers keep its first record.
    const fresh = valid.filter((record) => !stored.has(record.handle));
    if (fresh.length > 0) await this.#writer.append(target, encodeRecordLines("offloaded", fresh));
  }

  async loadOffloaded(conversationId: string, handle: string): Promise<OffloadedRecord | undefined> {
    validateConversationId(conversationId);
    const target = this.#offloadTarget(conversationId);
    await this.#writer.idle(target.logPath);
    return this.#offloadReader.load(target.logPath, conversationId, handle);
  }

  async listOffloaded(conversationId: string): Promise<ReadonlyArray<OffloadedInfo>> {
    validateConversationId(conversationId);
    const target = this.#offloadTarget(conversationId);
    await this.#writer.idle(target.logPath);
    return this.#offloadReader.list(target.logPath, conversationId);
  }

  /**
   * Appends to the conversation's token-count log (.token-counts/<log file name>), leaving out
   * (encoding, key) pairs it already holds. Not fsynced, whatever `durability` says: the records are a
   * cache, and a killed process still loses nothing the system cache holds.
   */
  async appendTokenCounts(conversationId: string, records: ReadonlyArray<TokenCountRecord>): Promise<void> {
    if (this.#closed) throw new StoreClosedError(`The store in ${this.directory}`);
    validateConversationId(conversationId);
    const valid = validateTokenCountRecords(conversationId, records);
    if (valid.length === 0) return;
    const target = this.#countTarget(conversationId);
    await this.#countWriter.idle(target.logPath);
    const stored = await this.#countReader.has(target.logPath, conversationId);
    // Two processes may still both write a pair; readers keep its first record.
    const fresh = valid.filter((record) => !stored(record.encoding, record.key));
    if (fresh.length > 0) await this.#countWriter.append(target, encodeTokenCountLines(fresh));
  }

  /** Every record of the token-count log in one read (only the new bytes after the first); unreadable lines are skipped. */
  async loadTokenCounts(conversationId: string): Promise<ReadonlyArray<TokenCountRecord>> {
    validateConversationId(conversationId);
    const target = this.#countTarget(conversationId);
    await this.#countWriter.idle(target.logPath);
    return this.#countReader.read(target.logPath, conversationId);
  }

  async load(conversationId: string): Promise<LoadedConversation> {
    validateConversationId(conversationId);
    const target = this.#target(conversationId);
    // Appends this store accepted before the load are part of what it loads: once in the file, not
    // necessarily durable yet (an agent loop builds from the user's message while it is fsynced).
    await this.#writer.written(target.logPath);
    return (await this.#reader.read(target.logPath, conversationId)).conversation;
  }

  async list(): Promise<ReadonlyArray<ConversationInfo>> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    await this.#writer.idle();
    const infos: ConversationInfo[] = [];
    for (const name of names) {
      const decoded = conversationIdFromFileName(name);
      if (decoded === undefined) continue;
      const logPath = join(this.directory, name);
      const { headerId, conversation } = await this.#reader.read(logPath, decoded === "hashed" ? undefined : decoded);
      const conversationId = decoded === "hashed" ? headerId : decoded;
      if (conversationId === undefined || conversation.messages.length + conversation.summaries.length === 0) continue;
      const updatedAt = (await stat(logPath).catch(() => undefined))?.mtime.toISOString();
      infos.push(updatedAt === undefined ? { conversationId, messageCount: conversation.messages.length } : { conversationId, messageCount: conversation.messages.length, updatedAt });
    }
    return infos.sort((a, b) => (a.conversationId < b.conversationId ? -1 : a.conversationId > b.conversationId ? 1 : 0));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([this.#writer.idle(), this.#countWriter.idle()]);
  }

  #append(conversationId: string, kind: "message" | "summary", validate: () => ReadonlyArray<object>, onWritten?: () => void): Promise<void> {
    try {
      if (this.#closed) throw new StoreClosedError(`The store in ${this.directory}`);
      validateConversationId(conversationId);
      const records = validate();
      if (records.length === 0) return Promise.resolve();
      // Serialized now: a caller changing its objects after append cannot change what is written.
      return this.#writer.append(this.#target(conversationId), encodeRecordLines(kind, records), onWritten);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #offloadTarget(conversationId: string): LogTarget {
    const fileName = conversationFileName(conversationId);
    return {
      conversationId,
      logPath: join(this.directory, OFFLOAD_DIRECTORY, fileName),
      lockPath: join(this.directory, LOCK_DIRECTORY, `${fileName}.offloaded.lock`),
      headerLine: encodeOffloadHeaderLine(conversationId),
    };
  }

  #countTarget(conversationId: string): LogTarget {
    const fileName = conversationFileName(conversationId);
    return {
      conversationId,
      logPath: join(this.directory, TOKEN_COUNT_DIRECTORY, fileName),
      lockPath: join(this.directory, LOCK_DIRECTORY, `${fileName}.token-counts.lock`),
      headerLine: encodeTokenCountHeaderLine(conversationId),
    };
  }

  #target(conversationId: string): LogTarget {
    const fileName = conversationFileName(conversationId);
    return {
      conversationId,
      logPath: join(this.directory, fileName),
      lockPath: join(this.directory, LOCK_DIRECTORY, `${fileName}.lock`),
    };
  }
}

/** mkdir -p, then make every directory it created durable in its parent. */
async function createDirectory(directory: string, durable: boolean): Promise<string> {
  const firstCreated = await mkdir(directory, { recursive: true });
  await mkdir(join(directory, LOCK_DIRECTORY), { recursive: true });
  const offloadCreated = await mkdir(join(directory, OFFLOAD_DIRECTORY), { recursive: true });
  if (durable && offloadCreated !== undefined) await syncDirectory(directory);
  if (durable && firstCreated !== undefined) {
    for (let created = directory; ; created = dirname(created)) {
      await syncDirectory(dirname(created));
      if (created === firstCreated || dirname(created) === created) break;
    }
  }
  return directory;
}

