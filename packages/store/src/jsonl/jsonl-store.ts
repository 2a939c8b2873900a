// The embedded store: one append-only JSON-lines file per conversation in one directory, no server.
// See log-record.ts for the format, group-commit-writer.ts for durability and with-file-lock.ts for
// how processes of one machine share a conversation.
import { parsePluginOptions } from "@ctxpipe/core";
import { StoreClosedError } from "../errors/store-closed-error.js";
import { mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import type { ConversationInfo, ConversationStore, LoadedConversation, StoreWarning } from "../conversation-store.js";
import type { OffloadedInfo, OffloadedRecord } from "../offloaded-record.js";
import type { StoredMessage, StoredSummaryRecord } from "../stored-message.js";
import { validateConversationId } from "../validate-conversation-id.js";
import { validateMessages } from "../validate-messages.js";
import { validateOffloadedRecords } from "../validate-offloaded-records.js";
import { validateSummaryRecords } from "../validate-summary-records.js";
import { conversationFileName, conversationIdFromFileName } from "./conversation-file-name.js";
import { GroupCommitWriter, type LogTarget } from "./group-commit-writer.js";
import { encodeRecordLines } from "./log-record.js";
import { LogReader } from "./log-reader.js";
import { encodeOffloadHeaderLine, OFFLOAD_DIRECTORY } from "./offload-log.js";
import { OffloadReader } from "./offload-reader.js";
import { syncDirectory } from "./sync-directory.js";

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
  readonly #reader = new LogReader();
  readonly #offloadReader = new OffloadReader();
  #directoryReady: Promise<string> | undefined;
  #closed = false;

  constructor(options: JsonlStoreOptions) {
    const parsed = parsePluginOptions("JsonlStore", optionsSchema, options);
    this.directory = resolve(parsed.directory);
    const durable = (parsed.durability ?? "fsync") === "fsync";
    this.#writer = new GroupCommitWriter({
      durable,
      lockTimeoutMs: parsed.lockTimeoutMs ?? 10_000,
      onWarning: parsed.onWarning ?? (() => undefined),
      prepareDirectory: () => {
        this.#directoryReady ??= createDirectory(this.directory, durable).catch((error: unknown) => {
          this.#directoryReady = undefined;
          throw error;
        });
        return this.#directoryReady;
      },
    });
  }

  append(conversationId: string, messages: StoredMessage | ReadonlyArray<StoredMessage>): Promise<void> {
    return this.#append(conversationId, "message", () => validateMessages(conversationId, messages));
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

  async load(conversationId: string): Promise<LoadedConversation> {
    validateConversationId(conversationId);
    const target = this.#target(conversationId);
    // Appends this store accepted before the load are part of what it loads.
    await this.#writer.idle(target.logPath);
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
    await this.#writer.idle();
  }

  #append(conversationId: string, kind: "message" | "summary", validate: () => ReadonlyArray<object>): Promise<void> {
    try {
      if (this.#closed) throw new StoreClosedError(`The store in ${this.directory}`);
      validateConversationId(conversationId);
      const records = validate();
      if (records.length === 0) return Promise.resolve();
      // Serialized now: a caller changing its objects after append cannot change what is written.
      return this.#writer.append(this.#target(conversationId), encodeRecordLines(kind, records));
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

