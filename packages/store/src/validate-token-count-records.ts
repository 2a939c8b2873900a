// Input validation for token-count records, shared by every store. A (encoding, key) given twice in one
// batch is kept once (the first), as the stores keep the first record they stored.
import { StoreInputError, type StoreInputIssue } from "./errors/store-input-error.js";
import type { TokenCountRecord } from "./token-count-record.js";
import { type FieldProblem, isPlainObject } from "./validate-json-value.js";

/** Letters, digits, "_" and "-", at most 64: safe in a file line, a SQL key and a URL alike. */
export const TOKEN_COUNT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_TOKEN_COUNT_ENCODING_LENGTH = 64;

/** The problems of one token-count record's fields. */
export function tokenCountRecordProblems(value: unknown): FieldProblem[] {
  if (!isPlainObject(value)) return [{ field: "", message: "must be a plain object" }];
  const problems: FieldProblem[] = [];
  if (typeof value.encoding !== "string" || value.encoding === "" || value.encoding.length > MAX_TOKEN_COUNT_ENCODING_LENGTH) {
    problems.push({ field: "encoding", message: `must be a string of 1 to ${MAX_TOKEN_COUNT_ENCODING_LENGTH} characters` });
  }
  if (typeof value.key !== "string" || !TOKEN_COUNT_KEY_PATTERN.test(value.key)) problems.push({ field: "key", message: "must be 1 to 64 letters, digits, '_' or '-'" });
  if (typeof value.tokens !== "number" || !Number.isSafeInteger(value.tokens) || value.tokens < 0) problems.push({ field: "tokens", message: "must be a non-negative integer" });
  return problems;
}

/** Whether three loaded fields make a valid record: tokenCountRecordProblems' checks without building anything, for loads of many records. */
export function isTokenCount(encoding: unknown, key: unknown, tokens: unknown): boolean {
  return (
    typeof encoding === "string" &&
    encoding !== "" &&
    encoding.length <= MAX_TOKEN_COUNT_ENCODING_LENGTH &&
    typeof key === "string" &&
    TOKEN_COUNT_KEY_PATTERN.test(key) &&
    Number.isSafeInteger(tokens) &&
    (tokens as number) >= 0
  );
}

/**
 * Checks an array of records; throws StoreInputError naming the index, key and field of every problem
 * before anything is written. Returns the records with only their three fields, the first of each
 * (encoding, key).
 */
export function validateTokenCountRecords(conversationId: string, value: unknown): TokenCountRecord[] {
  if (!Array.isArray(value)) throw new StoreInputError(conversationId, [{ index: 0, field: "", message: "token counts must be an array of records" }]);
  const issues: StoreInputIssue[] = [];
  const kept = new Map<string, TokenCountRecord>();
  value.forEach((record: unknown, index) => {
    const problems = tokenCountRecordProblems(record);
    const key = isPlainObject(record) && typeof record.key === "string" ? record.key : undefined;
    for (const problem of problems) issues.push(key === undefined ? { index, ...problem } : { index, id: key, ...problem });
    if (problems.length === 0) {
      const { encoding, key, tokens } = record as TokenCountRecord;
      const identity = tokenCountIdentity(encoding, key);
      if (!kept.has(identity)) kept.set(identity, { encoding, key, tokens });
    }
  });
  if (issues.length > 0) throw new StoreInputError(conversationId, issues);
  return [...kept.values()];
}

/** One string per (encoding, key): the key has no "\n", so the pair cannot be spelled two ways. */
export function tokenCountIdentity(encoding: string, key: string): string {
  return `${key}\n${encoding}`;
}
