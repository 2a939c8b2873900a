// An open log file. Calls that return at once on a local disk are made synchronously: each takes a few
// microseconds, where a trip through libuv's thread pool takes 30–160 µs, and an append or a load made
// a dozen of them. What may wait (a read or write of more than SMALL_BYTES, an fsync) still goes
// through the thread pool, so the event loop is never held up by the disk.
import { closeSync, fstatSync, fsync, ftruncateSync, openSync, read, readSync, type Stats, write, writeSync } from "node:fs";
import { promisify } from "node:util";

/** Reads and writes up to this size are made synchronously: they copy to or from the page cache. */
export const SMALL_BYTES = 256 * 1024;

const fsyncAsync = promisify(fsync);
const readAsync = promisify(read);
const writeAsync = promisify(write);

/** What readLines and readFully need of a file: FileHandle has it too. */
export interface PositionalReader {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

export class LogFile implements PositionalReader {
  readonly #fd: number;

  private constructor(fd: number) {
    this.#fd = fd;
  }

  /** Opens synchronously; throws as fs.openSync does (code "ENOENT" for a missing file). */
  static open(path: string, flags: "r" | "a+"): LogFile {
    return new LogFile(openSync(path, flags));
  }

  stat(): Stats {
    return fstatSync(this.#fd);
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    if (length <= SMALL_BYTES) return { bytesRead: readSync(this.#fd, buffer, offset, length, position) };
    return { bytesRead: (await readAsync(this.#fd, buffer, offset, length, position)).bytesRead };
  }

  /** One write(2) at the end of the file (opened "a+"); returns the bytes written. */
  async append(data: Buffer): Promise<number> {
    if (data.length <= SMALL_BYTES) return writeSync(this.#fd, data, 0, data.length);
    return (await writeAsync(this.#fd, data, 0, data.length)).bytesWritten;
  }

  truncate(length: number): void {
    ftruncateSync(this.#fd, length);
  }

  sync(): Promise<void> {
    return fsyncAsync(this.#fd);
  }

  close(): void {
    closeSync(this.#fd);
  }
}
