// Reads token-count logs. The records stay in memory per log with the byte offset read so far, grown
// incrementally like LogReader's cache while the file keeps its identity (device and inode) and does not
// shrink. Lines that cannot be read are skipped: the log is a cache. Bytes after the last newline (a
// torn line, or one being written) are not read.
import { type FileHandle, open } from "node:fs/promises";
import type { TokenCountRecord } from "../token-count-record.js";
import { readFully } from "./read-fully.js";
import { decodeTokenCountValue } from "./token-count-log.js";
import { OneReadAtATime } from "./one-read-at-a-time.js";

const NEWLINE = 0x0a;
const MAX_CACHED_LOGS = 128;

interface CachedCounts {
  readonly device: number;
  readonly inode: number;
  /** Bytes read so far: always just after a newline. */
  readonly offset: number;
  /** False once the header named another conversation or a version this one does not read. */
  readonly trusted: boolean;
  /** Keys already held per encoding, so the first record of each (encoding, key) wins. */
  readonly keys: Map<string, Set<string>>;
  readonly records: TokenCountRecord[];
}

export class TokenCountReader {
  readonly #cache = new Map<string, CachedCounts>();
  readonly #reads = new OneReadAtATime();

  /** Every readable record of the log, first of each (encoding, key); a copy the caller may keep. */
  read(path: string, conversationId: string): Promise<ReadonlyArray<TokenCountRecord>> {
    return this.#reads.run(path, async () => (await this.#read(path, conversationId)).records.slice());
  }

  /** Whether the log holds a record for (encoding, key) already. */
  async has(path: string, conversationId: string): Promise<(encoding: string, key: string) => boolean> {
    const counts = await this.#reads.run(path, () => this.#read(path, conversationId));
    return (encoding, key) => counts.keys.get(encoding)?.has(key) === true;
  }

  async #read(path: string, conversationId: string): Promise<CachedCounts> {
    let handle: FileHandle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      this.#cache.delete(path);
      return { device: 0, inode: 0, offset: 0, trusted: true, keys: new Map(), records: [] };
    }
    try {
      const stat = await handle.stat();
      const cached = this.#cache.get(path);
      const base: CachedCounts =
        cached !== undefined && cached.device === stat.dev && cached.inode === stat.ino && stat.size >= cached.offset
          ? cached
          : { device: stat.dev, inode: stat.ino, offset: 0, trusted: true, keys: new Map(), records: [] };
      const buffer = Buffer.allocUnsafe(stat.size - base.offset);
      const length = await readFully(handle, buffer, base.offset);
      const complete = buffer.lastIndexOf(NEWLINE, length - 1) + 1;
      const trusted = base.trusted && addLines(buffer.subarray(0, complete), base, conversationId);
      const entry: CachedCounts = trusted
        ? { ...base, offset: base.offset + complete }
        : { device: stat.dev, inode: stat.ino, offset: base.offset + complete, trusted: false, keys: new Map(), records: [] };
      this.#cache.delete(path);
      this.#cache.set(path, entry);
      if (this.#cache.size > MAX_CACHED_LOGS) this.#cache.delete(this.#cache.keys().next().value as string);
      return entry;
    } finally {
      await handle.close();
    }
  }
}

/**
 * Adds the records of complete lines to `base` (first of each identity kept); returns false when a
 * header says the log is not this conversation's counts in this version.
 */
function addLines(bytes: Buffer, base: CachedCounts, conversationId: string): boolean {
  if (bytes.length === 0) return true;
  // Invalid UTF-8 becomes U+FFFD, which spoils only the JSON of the line it is in.
  const text = bytes.toString("utf8");
  // Fast path: the lines as one JSON array, one parse for the whole file. A line that is not JSON
  // makes it fail; then each line is parsed on its own and the bad ones skipped.
  let values: unknown[];
  try {
    values = JSON.parse(`[${text.slice(0, -1).replaceAll("\n", ",")}]`) as unknown[];
  } catch {
    values = [];
    for (const line of text.slice(0, -1).split("\n")) {
      try {
        values.push(JSON.parse(line));
      } catch {
        // a torn or edited line: skipped
      }
    }
  }
  for (const value of values) {
    const decoded = decodeTokenCountValue(value);
    if (decoded === undefined) continue;
    if ("conversationId" in decoded) {
      if (decoded.conversationId !== conversationId) return false;
      continue;
    }
    const first = decoded.records[0];
    if (first === undefined) continue;
    let held = base.keys.get(first.encoding);
    if (held === undefined) {
      held = new Set();
      base.keys.set(first.encoding, held);
    }
    for (const record of decoded.records) {
      if (held.has(record.key)) continue;
      held.add(record.key);
      base.records.push(record);
    }
  }
  return true;
}
