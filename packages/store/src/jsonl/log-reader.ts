// Loads conversation logs. Parsed records are cached per log with the byte offset read so far, so
// loading a growing conversation again reads and parses only the new lines. The cache is trusted only
// while the file keeps its identity (device and inode) and does not shrink; otherwise it is read again
// from the start. Loading never writes.
import { isUtf8 } from "node:buffer";
import type { LoadedConversation, StoreWarning } from "../conversation-store.js";
import { StoreCorruptError } from "../errors/store-corrupt-error.js";
import type { StoredMessage, StoredSummaryRecord } from "../stored-message.js";
import { deepFreeze } from "./deep-freeze.js";
import { LogFile } from "./log-file.js";
import { decodeLogLine } from "./log-record.js";
import { OneReadAtATime } from "./one-read-at-a-time.js";
import { readLines } from "./read-lines.js";

const NEWLINE = 0x0a;
/** Conversations whose parsed records stay in memory; the least recently loaded one goes first. */
const MAX_CACHED_LOGS = 128;

interface CachedLog {
  readonly device: number;
  readonly inode: number;
  /** Bytes parsed so far: always just after a newline. */
  readonly offset: number;
  readonly lineCount: number;
  /** From the header line, once it has been read. */
  readonly conversationId: string | undefined;
  readonly messages: StoredMessage[];
  readonly summaries: StoredSummaryRecord[];
}

export interface LogContents {
  /** The id the header names, or undefined for an empty log (or one holding only a torn header). */
  readonly headerId: string | undefined;
  readonly conversation: LoadedConversation;
}

export class LogReader {
  readonly #cache = new Map<string, CachedLog>();
  readonly #reads = new OneReadAtATime();

  /**
   * Reads a log. `expectedId` is checked against the header (a log must belong to the conversation it
   * is loaded for); pass undefined to learn the id of a log whose file name is hashed.
   */
  read(logPath: string, expectedId: string | undefined): Promise<LogContents> {
    return this.#reads.run(logPath, () => this.#read(logPath, expectedId));
  }

  async #read(logPath: string, expectedId: string | undefined): Promise<LogContents> {
    let handle: LogFile;
    try {
      handle = LogFile.open(logPath, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      this.#cache.delete(logPath);
      return { headerId: undefined, conversation: emptyConversation(expectedId ?? "") };
    }
    try {
      const stat = handle.stat();
      const cached = this.#cache.get(logPath);
      const base =
        cached !== undefined && cached.device === stat.dev && cached.inode === stat.ino && stat.size >= cached.offset
          ? cached
          : { device: stat.dev, inode: stat.ino, offset: 0, lineCount: 0, conversationId: undefined, messages: [], summaries: [] };
      const parser = new LineParser(logPath, base, expectedId);
      const { complete, read: length } = await readLines(handle, base.offset, stat.size - base.offset, (lines) => parser.add(lines));
      const parsed = parser.finish();
      const warnings: StoreWarning[] = [];
      if (complete < length) {
        warnings.push({
          message: `Skipped ${length - complete} bytes after the last newline: a torn last line left by a crash (or a line being written right now). The next append moves it to ${logPath}.torn.`,
          location: logPath,
          line: parsed.lineCount + 1,
        });
      }
      this.#remember(logPath, { ...parsed, device: stat.dev, inode: stat.ino, offset: base.offset + complete });
      const conversationId = expectedId ?? parsed.conversationId ?? "";
      const conversation: LoadedConversation = Object.freeze({
        conversationId,
        messages: Object.freeze(parsed.messages.slice()),
        summaries: Object.freeze(parsed.summaries.slice()),
        warnings: Object.freeze(warnings),
      });
      return { headerId: parsed.conversationId, conversation };
    } finally {
      handle.close();
    }
  }

  #remember(logPath: string, entry: CachedLog): void {
    this.#cache.delete(logPath);
    this.#cache.set(logPath, entry);
    if (this.#cache.size > MAX_CACHED_LOGS) this.#cache.delete(this.#cache.keys().next().value as string);
  }
}

type ParsedLog = Pick<CachedLog, "lineCount" | "conversationId" | "messages" | "summaries">;

/** Parses complete lines after `base`, a read's chunks in order; throws StoreCorruptError before changing anything. */
class LineParser {
  readonly #logPath: string;
  readonly #base: ParsedLog;
  readonly #expectedId: string | undefined;
  #conversationId: string | undefined;
  #lineCount: number;
  #first = true;
  readonly #messages: StoredMessage[] = [];
  readonly #summaries: StoredSummaryRecord[] = [];

  constructor(logPath: string, base: ParsedLog, expectedId: string | undefined) {
    this.#logPath = logPath;
    this.#base = base;
    this.#expectedId = expectedId;
    this.#conversationId = base.conversationId;
    this.#lineCount = base.lineCount;
  }

  /** Complete lines (the bytes end with a newline). */
  add(bytes: Buffer): void {
    // Checked once per chunk, then each line decoded on its own: decoding the whole read into one
    // string made every line a slice of it, and one non-Latin-1 character anywhere made that string
    // (so every line) two bytes per character.
    if (!isUtf8(bytes)) throw new StoreCorruptError(this.#logPath, this.#lineCount + firstInvalidLine(bytes), "not valid UTF-8");
    // A byte order mark opening the read is dropped, as the whole-read TextDecoder did.
    let start = this.#first && hasByteOrderMark(bytes) ? 3 : 0;
    this.#first = false;
    while (start < bytes.length) {
      const end = bytes.indexOf(NEWLINE, start);
      const line = bytes.toString("utf8", start, end);
      start = end + 1;
      const lineCount = ++this.#lineCount;
      const record = line === "" ? "an empty line" : decodeLogLine(line, lineCount);
      if (typeof record === "string") throw new StoreCorruptError(this.#logPath, lineCount, record);
      if (record.kind === "header") {
        if (this.#expectedId !== undefined && record.conversationId !== this.#expectedId) {
          throw new StoreCorruptError(this.#logPath, lineCount, `the log belongs to conversation ${JSON.stringify(record.conversationId)}, not ${JSON.stringify(this.#expectedId)}`);
        }
        this.#conversationId = record.conversationId;
      } else if (record.kind === "message") {
        this.#messages.push(deepFreeze(record.message));
      } else {
        this.#summaries.push(deepFreeze(record.summary));
      }
    }
  }

  finish(): ParsedLog {
    // Only now that every line parsed does the cached entry grow (its arrays are never handed out).
    for (const message of this.#messages) this.#base.messages.push(message);
    for (const summary of this.#summaries) this.#base.summaries.push(summary);
    return { lineCount: this.#lineCount, conversationId: this.#conversationId, messages: this.#base.messages, summaries: this.#base.summaries };
  }
}

function hasByteOrderMark(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function firstInvalidLine(bytes: Buffer): number {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let line = 1;
  for (let start = 0; start < bytes.length; line++) {
    const end = bytes.indexOf(NEWLINE, start);
    try {
      decoder.decode(bytes.subarray(start, end));
    } catch {
      return line;
    }
    start = end + 1;
  }
  return line;
}

function emptyConversation(conversationId: string): LoadedConversation {
  return Object.freeze({ conversationId, messages: Object.freeze([]), summaries: Object.freeze([]), warnings: Object.freeze([]) });
}
