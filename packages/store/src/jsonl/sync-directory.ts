// Makes a directory entry durable: after creating a file, fsync of the file alone does not guarantee
// that its name survives a power loss.
import { open } from "node:fs/promises";

export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
