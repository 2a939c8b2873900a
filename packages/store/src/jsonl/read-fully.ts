// A positional read that does not stop at a short read; returns how many bytes it filled (fewer only
// at the end of the file).
import type { PositionalReader } from "./log-file.js";

export async function readFully(file: PositionalReader, buffer: Buffer, position: number): Promise<number> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}
