// Input validation for summary records: the store needs only a non-empty string id and JSON values.
import type { StoredSummaryRecord } from "./stored-message.js";
import { validateBatch } from "./validate-messages.js";
import { storedSummaryRecordProblems } from "./validate-stored-message.js";

/** Checks one summary record or an array of them; throws StoreInputError like validateMessages. */
export function validateSummaryRecords(conversationId: string, value: unknown): StoredSummaryRecord[] {
  return validateBatch(conversationId, value, storedSummaryRecordProblems) as StoredSummaryRecord[];
}
