// Reads a file, or standard input for "-", as UTF-8 text. A file that cannot be read is an ordinary
// failure (exit 1), not rejected input.
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";

export class SourceReadError extends Error {
  constructor(source: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (cause as Error)?.message;
    super(`Cannot read ${source}: ${why}`, { cause });
    this.name = "SourceReadError";
  }
}

export async function readSource(path: string, stdin: Readable, onBytes?: (read: number) => void): Promise<string> {
  if (path !== "-") {
    try {
      const bytes = await readFile(path);
      onBytes?.(bytes.length);
      return bytes.toString("utf8");
    } catch (error) {
      throw new SourceReadError(path, error);
    }
  }
  const chunks: Buffer[] = [];
  let read = 0;
  try {
    for await (const chunk of stdin) {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      chunks.push(buffer);
      read += buffer.length;
      onBytes?.(read);
    }
  } catch (error) {
    throw new SourceReadError("standard input", error);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** How a source is named in messages. */
export function sourceName(path: string): string {
  return path === "-" ? "standard input" : path;
}
