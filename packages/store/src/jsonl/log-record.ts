// The JSON-lines log format, version 1. Every line is one JSON object with exactly one key saying what
// it holds:
//   line 1:    {"log":{"format":"ctxpipe.conversation","version":1,"conversationId":"run-42"}}
//   then:      {"message":{...a StoredMessage...}}  or  {"summary":{...a StoredSummaryRecord...}}
// A later version changes the header's version; a reader refuses versions it does not know.
import type { StoredMessage, StoredSummaryRecord } from "../stored-message.js";
import { isPlainObject } from "../validate-json-value.js";
import { storedMessageProblems, storedSummaryRecordProblems } from "../validate-stored-message.js";

export const LOG_FORMAT = "ctxpipe.conversation";
export const LOG_VERSION = 1;

export type LogRecord =
  | { readonly kind: "header"; readonly conversationId: string }
  | { readonly kind: "message"; readonly message: StoredMessage }
  | { readonly kind: "summary"; readonly summary: StoredSummaryRecord };

export function encodeHeaderLine(conversationId: string): string {
  return `${JSON.stringify({ log: { format: LOG_FORMAT, version: LOG_VERSION, conversationId } })}\n`;
}

/** The records must have been validated (validateMessages): JSON.stringify then carries them exactly. */
export function encodeRecordLines(kind: "message" | "summary" | "offloaded", records: ReadonlyArray<object>): string {
  let text = "";
  for (const record of records) text += `{"${kind}":${JSON.stringify(record)}}\n`;
  return text;
}

/** Decodes one line; returns the reason when the line is not a record this version wrote. */
export function decodeLogLine(line: string, lineNumber: number): LogRecord | string {
  const value = parseObjectLine(line);
  if (typeof value === "string") return value;
  const keys = Object.keys(value);
  const kind = keys.length === 1 ? keys[0] : undefined;
  if (lineNumber === 1) return kind === "log" ? decodeHeader(value.log) : "the first line is not a ctxpipe conversation log header";
  if (kind === "message") {
    const problem = storedMessageProblems(value.message)[0];
    return problem === undefined ? { kind, message: value.message as StoredMessage } : `not a valid message: ${problem.field || "(record)"} ${problem.message}`;
  }
  if (kind === "summary") {
    const problem = storedSummaryRecordProblems(value.summary)[0];
    return problem === undefined ? { kind, summary: value.summary as StoredSummaryRecord } : `not a valid summary record: ${problem.field || "(record)"} ${problem.message}`;
  }
  return `not a ctxpipe log record (expected exactly one key, "message" or "summary"; got ${JSON.stringify(keys)})`;
}

function decodeHeader(header: unknown): LogRecord | string {
  if (!isPlainObject(header) || header.format !== LOG_FORMAT) return "the first line is not a ctxpipe conversation log header";
  if (header.version !== LOG_VERSION) return `the log has format version ${JSON.stringify(header.version)}; this version of @ctxpipe/store reads version ${LOG_VERSION}`;
  if (typeof header.conversationId !== "string") return "the header has no conversationId";
  return { kind: "header", conversationId: header.conversationId };
}

/** A line of either log as a JSON object, or the reason it is not one. */
export function parseObjectLine(line: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  return isPlainObject(value) ? value : "not a JSON object";
}
