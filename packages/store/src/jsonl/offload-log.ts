// The offload log: beside each conversation log, in the store's ".offloaded" directory under the same
// file name, an append-only JSON-lines file of the texts builds left out of their requests. Written
// with the conversation log's discipline (group commit, lock, torn-tail repair), so a crash leaves at
// most a torn last line, which loading skips:
//   line 1:    {"log":{"format":"ctxpipe.offloaded","version":1,"conversationId":"run-42"}}
//   then:      {"offloaded":{"handle":"ctx_…","itemId":"…","text":"…","createdAt":"…"}}
// A handle written twice (two processes racing) is read as its first record.
import type { OffloadedRecord } from "../offloaded-record.js";
import { isPlainObject } from "../validate-json-value.js";
import { offloadedRecordProblems } from "../validate-offloaded-records.js";
import { parseObjectLine } from "./log-record.js";

export const OFFLOAD_LOG_FORMAT = "ctxpipe.offloaded";
export const OFFLOAD_LOG_VERSION = 1;
export const OFFLOAD_DIRECTORY = ".offloaded";

export function encodeOffloadHeaderLine(conversationId: string): string {
  return `${JSON.stringify({ log: { format: OFFLOAD_LOG_FORMAT, version: OFFLOAD_LOG_VERSION, conversationId } })}\n`;
}

/** Decodes one line: the header's conversation id, a record, or the reason the line is not one. */
export function decodeOffloadLine(line: string, lineNumber: number): { readonly conversationId: string } | { readonly record: OffloadedRecord } | string {
  const value = parseObjectLine(line);
  if (typeof value === "string") return value;
  if (lineNumber === 1) {
    const header = value.log;
    if (!isPlainObject(header) || header.format !== OFFLOAD_LOG_FORMAT || typeof header.conversationId !== "string") return "the first line is not a ctxpipe offload log header";
    if (header.version !== OFFLOAD_LOG_VERSION) return `the offload log has format version ${JSON.stringify(header.version)}; this version of @ctxpipe/store reads version ${OFFLOAD_LOG_VERSION}`;
    return { conversationId: header.conversationId };
  }
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "offloaded") return `not an offloaded record (expected exactly one key, "offloaded"; got ${JSON.stringify(keys)})`;
  const problem = offloadedRecordProblems(value.offloaded)[0];
  if (problem !== undefined) return `not a valid offloaded record: ${problem.field || "(record)"} ${problem.message}`;
  const { handle, itemId, text, createdAt } = value.offloaded as unknown as OffloadedRecord;
  return { record: { handle, itemId, text, createdAt } };
}
