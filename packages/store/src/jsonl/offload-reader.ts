// Reads offload logs. Only an index stays in memory (handle → where its line is, without the text), grown
// incrementally like LogReader's cache while the file keeps its identity and does not shrink; a text is
// read from its line when asked for. Bytes after the last newline (a torn line) are not read.
import { type FileHandle, open } from "node:fs/promises";
import { StoreCorruptError } from "../errors/store-corrupt-error.js";
import type { OffloadedInfo, OffloadedRecord } from "../offloaded-record.js";
import { decodeOffloadLine } from "./offload-log.js";
import { readFully } from "./read-fully.js";
import { OneReadAtATime } from "./one-read-at-a-time.js";

const NEWLINE = 0x0a;
const MAX_CACHED_INDEXES = 256;

interface IndexEntry {
  readonly info: OffloadedInfo;
  readonly start: number;
  readonly length: number;
  readonly line: number;
}

interface OffloadIndex {
  readonly device: number;
  readonly inode: number;
  /** Bytes indexed so far: always just after a newline. */
  readonly offset: number;
  readonly lineCount: number;
  readonly entries: Map<string, IndexEntry>;
}

export class OffloadReader {
  readonly #cache = new Map<string, OffloadIndex>();
  readonly #reads = new OneReadAtATime();

  /** Every handle of the log, first stored first. */
  async list(path: string, conversationId: string): Promise<OffloadedInfo[]> {
    return this.#reads.run(path, async () => {
      const handle = await openIfPresent(path);
      if (handle === undefined) return [];
      try {
        const index = await this.#index(handle, path, conversationId);
        return [...index.entries.values()].map((entry) => entry.info);
      } finally {
        await handle.close();
      }
    });
  }

  async load(path: string, conversationId: string, wanted: string): Promise<OffloadedRecord | undefined> {
    return this.#reads.run(path, async () => {
      const handle = await openIfPresent(path);
      if (handle === undefined) return undefined;
      try {
        const entry = (await this.#index(handle, path, conversationId)).entries.get(wanted);
        if (entry === undefined) return undefined;
        const bytes = Buffer.allocUnsafe(entry.length);
        await readFully(handle, bytes, entry.start);
        const decoded = decodeOffloadLine(bytes.toString("utf8"), entry.line);
        // The index said this line holds the handle; anything else means the file changed under us.
        if (typeof decoded === "string" || !("record" in decoded) || decoded.record.handle !== wanted) {
          throw new StoreCorruptError(path, entry.line, typeof decoded === "string" ? decoded : `the line no longer holds handle ${JSON.stringify(wanted)}`);
        }
        return decoded.record;
      } finally {
        await handle.close();
      }
    });
  }

  async #index(handle: FileHandle, path: string, conversationId: string): Promise<OffloadIndex> {
    const stat = await handle.stat();
    const cached = this.#cache.get(path);
    const base: OffloadIndex =
      cached !== undefined && cached.device === stat.dev && cached.inode === stat.ino && stat.size >= cached.offset
        ? cached
        : { device: stat.dev, inode: stat.ino, offset: 0, lineCount: 0, entries: new Map() };
    const buffer = Buffer.allocUnsafe(stat.size - base.offset);
    const length = await readFully(handle, buffer, base.offset);
    const complete = buffer.lastIndexOf(NEWLINE, length - 1) + 1;
    // Parsed into a new map first: a corrupt line throws before the cached index changes.
    const added = new Map<string, IndexEntry>();
    let lineCount = base.lineCount;
    for (let start = 0; start < complete; ) {
      const end = buffer.indexOf(NEWLINE, start);
      lineCount++;
      const line = buffer.subarray(start, end);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(line);
      } catch {
        throw new StoreCorruptError(path, lineCount, "not valid UTF-8");
      }
      const decoded = text === "" ? "an empty line" : decodeOffloadLine(text, lineCount);
      if (typeof decoded === "string") throw new StoreCorruptError(path, lineCount, decoded);
      if ("conversationId" in decoded) {
        if (decoded.conversationId !== conversationId) {
          throw new StoreCorruptError(path, lineCount, `the offload log belongs to conversation ${JSON.stringify(decoded.conversationId)}, not ${JSON.stringify(conversationId)}`);
        }
      } else {
        const { handle: recordHandle, itemId, text: recordText, createdAt } = decoded.record;
        if (!base.entries.has(recordHandle) && !added.has(recordHandle)) {
          added.set(recordHandle, { info: { handle: recordHandle, itemId, chars: recordText.length, createdAt }, start: base.offset + start, length: end - start, line: lineCount });
        }
      }
      start = end + 1;
    }
    for (const [key, entry] of added) base.entries.set(key, entry);
    const index: OffloadIndex = { device: stat.dev, inode: stat.ino, offset: base.offset + complete, lineCount, entries: base.entries };
    this.#cache.delete(path);
    this.#cache.set(path, index);
    if (this.#cache.size > MAX_CACHED_INDEXES) this.#cache.delete(this.#cache.keys().next().value as string);
    return index;
  }
}

async function openIfPresent(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
