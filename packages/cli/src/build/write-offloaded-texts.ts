// --offload-dir: each text the build cut or cleared, whole, in DIR/<handle>.txt. The handle is the
// text's content address, so a file already there holds the same text and is kept as it is; a new one
// is written to a temporary file and renamed, so no reader ever sees half a file.
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { OffloadedText } from "@ctxpipe/core";

/** What contentHandle makes; anything else could name a path outside DIR. */
const HANDLE = /^[A-Za-z0-9_-]{1,128}$/;

export interface OffloadedFiles {
  readonly written: number;
  /** Files already in the directory (the same handle, so the same text). */
  readonly kept: number;
}

export async function writeOffloadedTexts(directory: string, offloaded: ReadonlyArray<OffloadedText>): Promise<OffloadedFiles> {
  let written = 0;
  let kept = 0;
  try {
    await mkdir(directory, { recursive: true });
    for (const { handle, text } of offloaded) {
      if (!HANDLE.test(handle)) throw new Error(`the handle ${JSON.stringify(handle)} is not a content handle`);
      const path = join(directory, `${handle}.txt`);
      if (await exists(path)) {
        kept++;
        continue;
      }
      const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, text, "utf8");
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      written++;
    }
  } catch (error) {
    throw new Error(`Cannot write offloaded texts to ${directory}: ${(error as Error).message}`, { cause: error });
  }
  return { written, kept };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
