// What the CLI touches of its process, passed in so tests can run it in-process with their own streams.
import type { Readable, Writable } from "node:stream";

export interface CliIo {
  readonly stdin: Readable & { readonly isTTY?: boolean };
  readonly stdout: Writable;
  readonly stderr: Writable & { readonly isTTY?: boolean; readonly columns?: number };
  /** Width of the terminal table; undefined (output not a terminal): lines are not shortened. */
  readonly columns?: number;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    ...(process.stdout.isTTY && process.stdout.columns !== undefined ? { columns: process.stdout.columns } : {}),
    env: process.env,
  };
}
