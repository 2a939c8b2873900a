// Before writing, under the conversation's lock: bytes after the last newline are a line torn by a
// crash (never acknowledged, since an append resolves only after its whole write). They are appended to
// "<log>.torn" so nothing is lost, and the log is truncated back to its last complete line.
import { open } from "node:fs/promises";
import type { StoreWarning } from "../conversation-store.js";
import type { LogFile } from "./log-file.js";
import { readFully } from "./read-fully.js";

const NEWLINE = 0x0a;
const SCAN_CHUNK = 64 * 1024;

/** Returns the size of the log after the repair (unchanged when its last byte is a newline). */
export async function repairTornTail(log: LogFile, logPath: string, size: number, durable: boolean, onWarning: (warning: StoreWarning) => void): Promise<number> {
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  await log.read(last, 0, 1, size - 1);
  if (last[0] === NEWLINE) return size;

  const keep = await endOfLastLine(log, size);
  const torn = Buffer.alloc(size - keep);
  await readFully(log, torn, keep);
  const sidecarPath = `${logPath}.torn`;
  const sidecar = await open(sidecarPath, "a");
  try {
    await sidecar.write(Buffer.concat([torn, Buffer.from("\n")]));
    if (durable) await sidecar.sync();
  } finally {
    await sidecar.close();
  }
  log.truncate(keep);
  if (durable) await log.sync();
  onWarning({
    message: `Moved ${torn.length} bytes of a torn last line (an append interrupted by a crash, never acknowledged) to ${sidecarPath} and truncated the log to its last complete line.`,
    location: logPath,
  });
  return keep;
}

async function endOfLastLine(log: LogFile, size: number): Promise<number> {
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - SCAN_CHUNK);
    const chunk = Buffer.alloc(end - start);
    await readFully(log, chunk, start);
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}
