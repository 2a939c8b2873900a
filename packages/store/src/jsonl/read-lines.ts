// Reads part of a file a chunk at a time and hands over its complete lines, each piece ending just
// after a newline. One reused buffer instead of one the size of the file: the fresh pages of a 32 MB
// buffer cost a new process more than reading the file did.
import type { PositionalReader } from "./log-file.js";

const NEWLINE = 0x0a;
/** Bytes read at a time; a line longer than this grows the buffer. */
export const READ_CHUNK_BYTES = 1 << 20;

export interface LinesRead {
  /** Bytes handed over, from `position`: always just after a newline. */
  readonly complete: number;
  /** Bytes read (fewer than asked only when the file shrank); the rest after `complete` is a torn line. */
  readonly read: number;
}

/**
 * Reads `length` bytes from `position` and calls `onLines` with the complete lines of each chunk; the
 * bytes given are reused afterwards, so `onLines` must be done with them when it returns.
 */
export async function readLines(handle: PositionalReader, position: number, length: number, onLines: (lines: Buffer) => void, chunkBytes = READ_CHUNK_BYTES): Promise<LinesRead> {
  let buffer = Buffer.allocUnsafe(Math.min(length, chunkBytes));
  /** Bytes at the start of `buffer` after the last newline handed over. */
  let held = 0;
  let read = 0;
  let complete = 0;
  while (read < length) {
    if (held === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(length, buffer.length * 2));
      buffer.copy(grown, 0, 0, held);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, held, Math.min(buffer.length - held, length - read), position + read);
    if (bytesRead === 0) break;
    read += bytesRead;
    const filled = held + bytesRead;
    const end = buffer.lastIndexOf(NEWLINE, filled - 1) + 1;
    if (end > 0) {
      onLines(buffer.subarray(0, end));
      complete += end;
      buffer.copy(buffer, 0, end, filled);
    }
    held = filled - end;
  }
  return { complete, read };
}
