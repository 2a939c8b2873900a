// The type parsers of a load's query: a record's json body is parsed as its row arrives from the
// server, so the driver never holds the conversation's text and its parsed records at once (at 10,000
// messages, 32 MB of strings that a fresh process paid for in memory it had to map and collect).
import pg from "pg";

/** PostgreSQL's oid of the json type. */
const JSON_OID = 114;

/** A body that is not JSON: kept until the load can name the row (the parser does not know it). */
export class UnparsableBody {
  readonly reason: string;
  readonly cause: unknown;

  constructor(cause: unknown) {
    this.reason = (cause as Error).message;
    this.cause = cause;
  }
}

/** What a json column holds after RECORD_BODY_TYPES parsed it: a JSON value, or why it is not JSON. */
export type ParsedBody = unknown;

function parseBody(text: string): ParsedBody {
  try {
    return JSON.parse(text);
  } catch (error) {
    return new UnparsableBody(error);
  }
}

/**
 * json columns parsed by parseBody (never throwing inside the driver); every other type as pg parses
 * it. Applications' global json parsers do not apply: what a load returns must be what was appended.
 */
export const RECORD_BODY_TYPES = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => (oid === JSON_OID ? parseBody : pg.types.getTypeParser(oid, format as "text"))) as pg.CustomTypesConfig["getTypeParser"],
};
