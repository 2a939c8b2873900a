// Appends to conversation logs with group commit: appends that arrive while a write is in flight are
// coalesced, in call order, into the next single write and fsync of that conversation. Each caller's
// promise settles when the write holding its lines is durable (or has failed).
import type { StoreWarning } from "../conversation-store.js";
import { LogFile } from "./log-file.js";
import { encodeHeaderLine } from "./log-record.js";
import { repairTornTail } from "./repair-torn-tail.js";
import { syncDirectory } from "./sync-directory.js";
import { withFileLock } from "./with-file-lock.js";

/** Above this, queued appends wait for the next write (one append's lines are never split). */
const MAX_GROUP_BYTES = 8 * 1024 * 1024;

export interface LogTarget {
  readonly conversationId: string;
  readonly logPath: string;
  readonly lockPath: string;
  /** The first line of a new file; a conversation log's header when absent. */
  readonly headerLine?: string;
}

export interface GroupCommitWriterOptions {
  readonly durable: boolean;
  readonly lockTimeoutMs: number;
  readonly onWarning: (warning: StoreWarning) => void;
  /** Creates the store's directory (durably) before the first write. */
  readonly prepareDirectory: () => Promise<string>;
}

interface PendingAppend {
  readonly lines: string;
  /** Called once the lines are in the file, before the fsync. */
  readonly onWritten: (() => void) | undefined;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

interface Queue {
  readonly target: LogTarget;
  readonly pending: PendingAppend[];
  draining: Promise<void>;
  /** Appends queued, and appends whose lines are in the file (or whose write failed), so far. */
  queued: number;
  written: number;
  /** Waiting for the appends queued before them to be written. */
  readonly waiters: Array<{ readonly upTo: number; readonly resolve: () => void }>;
}

export class GroupCommitWriter {
  readonly #options: GroupCommitWriterOptions;
  readonly #queues = new Map<string, Queue>();

  constructor(options: GroupCommitWriterOptions) {
    this.#options = options;
  }

  /** Queues lines (each ending in "\n") for one conversation; resolves once they are durable. */
  append(target: LogTarget, lines: string, onWritten?: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const existing = this.#queues.get(target.logPath);
      if (existing !== undefined) {
        existing.pending.push({ lines, onWritten, resolve, reject });
        existing.queued++;
        return;
      }
      const queue: Queue = { target, pending: [{ lines, onWritten, resolve, reject }], draining: Promise.resolve(), queued: 1, written: 0, waiters: [] };
      this.#queues.set(target.logPath, queue);
      // Start on the next microtask, so appends issued together (Promise.all) share the first write.
      queue.draining = Promise.resolve().then(() => this.#drain(queue));
    });
  }

  /** Settles when every append queued so far for this log is durable or has failed. */
  async idle(logPath?: string): Promise<void> {
    const queues = logPath === undefined ? [...this.#queues.values()] : [this.#queues.get(logPath)];
    await Promise.all(queues.map((queue) => queue?.draining));
  }

  /**
   * Settles when the lines of every append queued so far for this log are in the file (a load reads
   * them), or their write failed: a load need not wait for their fsync.
   */
  written(logPath: string): Promise<void> {
    const queue = this.#queues.get(logPath);
    if (queue === undefined || queue.written >= queue.queued) return Promise.resolve();
    return new Promise((resolve) => queue.waiters.push({ upTo: queue.queued, resolve }));
  }

  async #drain(queue: Queue): Promise<void> {
    while (queue.pending.length > 0) {
      const group = takeGroup(queue.pending);
      let inFile = false;
      const written = () => {
        inFile = true;
        wake(queue, group.length);
        for (const append of group) notify(append.onWritten);
      };
      try {
        await this.#write(queue.target, group.map((append) => append.lines).join(""), written);
        for (const append of group) append.resolve();
      } catch (error) {
        if (!inFile) wake(queue, group.length);
        for (const append of group) append.reject(error);
      }
    }
    this.#queues.delete(queue.target.logPath);
  }

  async #write(target: LogTarget, lines: string, written: () => void): Promise<void> {
    const { durable, lockTimeoutMs, onWarning } = this.#options;
    const directory = await this.#options.prepareDirectory();
    const onTakeover = (pid: number | undefined) =>
      onWarning({ message: `Took over the lock of process ${pid ?? "(unknown)"}, which is no longer running.`, location: target.lockPath });
    await withFileLock(target.lockPath, { timeoutMs: lockTimeoutMs, onTakeover }, async () => {
      // O_APPEND: every write lands at the end, whoever else appended before us.
      const log = LogFile.open(target.logPath, "a+");
      try {
        const size = await repairTornTail(log, target.logPath, log.stat().size, durable, onWarning);
        const data = Buffer.from(size === 0 ? (target.headerLine ?? encodeHeaderLine(target.conversationId)) + lines : lines, "utf8");
        await writeAllOrNothing(log, data, size);
        // In the file: a load from now on reads the lines, while the fsync waits for the disk.
        written();
        if (durable) {
          await log.sync();
          if (size === 0) await syncDirectory(directory);
        }
      } finally {
        log.close();
      }
    });
  }
}

/** Counts `count` more appends written (or failed) and lets go of the loads that waited for them. */
function wake(queue: Queue, count: number): void {
  queue.written += count;
  for (let index = queue.waiters.length - 1; index >= 0; index--) {
    const waiter = queue.waiters[index]!;
    if (waiter.upTo > queue.written) continue;
    queue.waiters.splice(index, 1);
    waiter.resolve();
  }
}

/** A caller's callback: what it throws is its own, and does not fail the write. */
function notify(onWritten: (() => void) | undefined): void {
  try {
    onWritten?.();
  } catch {
    // Ignored: the append itself still settles as the write does.
  }
}

function takeGroup(pending: PendingAppend[]): PendingAppend[] {
  let bytes = 0;
  let count = 0;
  while (count < pending.length && (count === 0 || bytes + (pending[count] as PendingAppend).lines.length <= MAX_GROUP_BYTES)) {
    bytes += (pending[count] as PendingAppend).lines.length;
    count++;
  }
  return pending.splice(0, count);
}

/** One write(2); a short or failed write is cut back off, so the batch is stored whole or not at all. */
async function writeAllOrNothing(log: LogFile, data: Buffer, sizeBefore: number): Promise<void> {
  let written: number;
  try {
    written = await log.append(data);
  } catch (error) {
    truncateOrNothing(log, sizeBefore);
    throw error;
  }
  if (written !== data.length) {
    truncateOrNothing(log, sizeBefore);
    throw new Error(`Short write to the conversation log: ${written} of ${data.length} bytes; the append was not stored.`);
  }
}

function truncateOrNothing(log: LogFile, length: number): void {
  try {
    log.truncate(length);
  } catch {
    // The write's own error says what went wrong; a torn tail left here is repaired before the next write.
  }
}
