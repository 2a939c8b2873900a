// Input validation for offloaded records, shared by every store: a handle that is safe as a file name,
// string fields, and JSON values. A handle given twice in one batch is kept once (the first).
import type { OffloadedRecord } from "./offloaded-record.js";
import { StoreInputError } from "./errors/store-input-error.js";
import { type FieldProblem, isPlainObject } from "./validate-json-value.js";

/** Letters, digits, "_" and "-", at most 128: what contentHandle makes, and safe in any file name. */
export const OFFLOADED_HANDLE_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The problems of one offloaded record's fields. */
export function offloadedRecordProblems(value: unknown): FieldProblem[] {
  if (!isPlainObject(value)) return [{ field: "", message: "must be a plain object" }];
  const problems: FieldProblem[] = [];
  if (typeof value.handle !== "string" || !OFFLOADED_HANDLE_PATTERN.test(value.handle)) {
    problems.push({ field: "handle", message: "must be 1 to 128 letters, digits, '_' or '-'" });
  }
  if (typeof value.itemId !== "string" || value.itemId === "") problems.push({ field: "itemId", message: "must be a non-empty string" });
  if (typeof value.text !== "string") problems.push({ field: "text", message: "must be a string" });
  if (typeof value.createdAt !== "string") problems.push({ field: "createdAt", message: "must be a string (ISO 8601)" });
  return problems;
}

/**
 * Checks one record or an array of them; throws StoreInputError naming the index, handle and field of
 * every problem before anything is written. Returns the records with only their four fields, the first
 * of each handle.
 */
export function validateOffloadedRecords(conversationId: string, value: unknown): OffloadedRecord[] {
  const records = Array.isArray(value) ? value : [value];
  const issues: Array<{ index: number; id?: string; field: string; message: string }> = [];
  const kept = new Map<string, OffloadedRecord>();
  records.forEach((record, index) => {
    const problems = offloadedRecordProblems(record);
    const handle = isPlainObject(record) && typeof record.handle === "string" ? record.handle : undefined;
    for (const problem of problems) issues.push(handle === undefined ? { index, ...problem } : { index, id: handle, ...problem });
    if (problems.length === 0) {
      const { handle, itemId, text, createdAt } = record as OffloadedRecord;
      if (!kept.has(handle)) kept.set(handle, { handle, itemId, text, createdAt });
    }
  });
  if (issues.length > 0) throw new StoreInputError(conversationId, issues);
  return [...kept.values()];
}
