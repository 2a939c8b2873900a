// A record in the log that is not one ctxpipe wrote (corrupt bytes, a foreign line, a hand edit). The
// store reports it and stops: it never rewrites or skips a record silently.
import { CtxpipeError } from "@ctxpipe/core";

export const STORE_CORRUPT = "STORE_CORRUPT";

export class StoreCorruptError extends CtxpipeError {
  /** The file (JSON-lines store) or table (PostgreSQL store). */
  readonly location: string;
  /** 1-based line of the file, or the row's sequence number. */
  readonly line: number;
  readonly reason: string;

  constructor(location: string, line: number, reason: string, options?: { cause?: unknown }) {
    super(STORE_CORRUPT, `${location}, line ${line}: ${reason}`, options);
    this.name = "StoreCorruptError";
    this.location = location;
    this.line = line;
    this.reason = reason;
  }
}
