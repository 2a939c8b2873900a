// Input validation every store runs before it writes: all problems of a batch are collected and thrown
// together, so nothing of an invalid batch is stored.
import { StoreInputError, type StoreInputIssue } from "./errors/store-input-error.js";
import type { StoredMessage } from "./stored-message.js";
import { type FieldProblem, jsonValueProblems } from "./validate-json-value.js";
import { storedMessageProblems } from "./validate-stored-message.js";

/**
 * Checks one message or an array of them and returns them as an array. Throws StoreInputError naming
 * the index, id and field of every problem: a message that is not a plain object, has no non-empty
 * string id, an unknown role, a mistyped known field, a value JSON would not carry losslessly, or an
 * id used twice in the batch.
 */
export function validateMessages(conversationId: string, value: unknown): StoredMessage[] {
  return validateBatch(conversationId, value, storedMessageProblems) as StoredMessage[];
}

export function validateBatch(conversationId: string, value: unknown, shapeProblems: (record: unknown) => FieldProblem[]): unknown[] {
  const records = Array.isArray(value) ? value : [value];
  const issues: StoreInputIssue[] = [];
  const seen = new Map<string, number>();
  records.forEach((record, index) => {
    const id = typeof (record as { id?: unknown } | null)?.id === "string" ? ((record as { id: string }).id) : undefined;
    const problems = shapeProblems(record);
    // The shape check already explains a non-object; walking it for JSON problems would repeat that.
    if (problems.length === 0 || problems[0]?.field !== "") problems.push(...jsonValueProblems(record));
    if (id !== undefined && id !== "") {
      const first = seen.get(id);
      if (first === undefined) seen.set(id, index);
      else problems.push({ field: "id", message: `duplicates the id of index ${first} in the same batch` });
    }
    for (const problem of problems) issues.push(id === undefined ? { index, ...problem } : { index, id, ...problem });
  });
  if (issues.length > 0) throw new StoreInputError(conversationId, issues);
  return records;
}
