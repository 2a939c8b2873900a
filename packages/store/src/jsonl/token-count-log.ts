// The token-count log: beside each conversation log, in the store's ".token-counts" directory under the
// same file name, an append-only JSON-lines file of how many tokens an encoding makes of a text. One
// line per append and encoding, keys and counts in two parallel arrays (half the bytes of a record per
// line, and parsing arrays of strings and numbers is about twice as fast as parsing an object each):
//   line 1:    {"log":{"format":"ctxpipe.token-counts","version":1,"conversationId":"run-42"}}
//   then:      {"counts":{"encoding":"o200k_base","keys":["…","…"],"tokens":[12,40]}}
// A cache: written without fsync (a killed process loses nothing the system cache holds), and a line or
// entry that cannot be read (torn by a crash, or edited) is skipped, never an error. A (encoding, key)
// written twice (two processes racing) is read as its first record.
import type { TokenCountRecord } from "../token-count-record.js";
import { isPlainObject } from "../validate-json-value.js";
import { isTokenCount } from "../validate-token-count-records.js";

export const TOKEN_COUNT_LOG_FORMAT = "ctxpipe.token-counts";
export const TOKEN_COUNT_LOG_VERSION = 1;
export const TOKEN_COUNT_DIRECTORY = ".token-counts";

export function encodeTokenCountHeaderLine(conversationId: string): string {
  return `${JSON.stringify({ log: { format: TOKEN_COUNT_LOG_FORMAT, version: TOKEN_COUNT_LOG_VERSION, conversationId } })}\n`;
}

/** One line per encoding, in the order encodings first appear. The records must have been validated (validateTokenCountRecords). */
export function encodeTokenCountLines(records: ReadonlyArray<TokenCountRecord>): string {
  const byEncoding = new Map<string, { keys: string[]; tokens: number[] }>();
  for (const { encoding, key, tokens } of records) {
    let group = byEncoding.get(encoding);
    if (group === undefined) {
      group = { keys: [], tokens: [] };
      byEncoding.set(encoding, group);
    }
    group.keys.push(key);
    group.tokens.push(tokens);
  }
  let text = "";
  for (const [encoding, { keys, tokens }] of byEncoding) text += `{"counts":${JSON.stringify({ encoding, keys, tokens })}}\n`;
  return text;
}

/**
 * What one parsed line holds: a header (its conversation id, or undefined for a version this one does
 * not read), the readable records of a counts line (its bad entries left out), or undefined for
 * anything else (skipped).
 */
export function decodeTokenCountValue(value: unknown): { readonly conversationId: string | undefined } | { readonly records: TokenCountRecord[] } | undefined {
  if (!isPlainObject(value)) return undefined;
  const counts = value.counts;
  if (isPlainObject(counts)) {
    const { encoding, keys, tokens } = counts;
    if (typeof encoding !== "string" || !Array.isArray(keys) || !Array.isArray(tokens) || keys.length !== tokens.length) return undefined;
    const records: TokenCountRecord[] = [];
    for (let index = 0; index < keys.length; index++) {
      if (isTokenCount(encoding, keys[index], tokens[index])) records.push({ encoding, key: keys[index] as string, tokens: tokens[index] as number });
    }
    return { records };
  }
  const header = value.log;
  if (!isPlainObject(header) || header.format !== TOKEN_COUNT_LOG_FORMAT || typeof header.conversationId !== "string") return undefined;
  // Counts a later version wrote may mean something else: none of them is trusted.
  return { conversationId: header.version === TOKEN_COUNT_LOG_VERSION ? header.conversationId : undefined };
}
