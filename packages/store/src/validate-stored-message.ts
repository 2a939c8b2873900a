// The shape every stored message must have, checked on append (before anything is written) and on load
// (a line that does not fit is a corrupt record). JSON-serializability is checked separately.
import { type FieldProblem, isPlainObject } from "./validate-json-value.js";

const ROLES: ReadonlySet<string> = new Set(["user", "assistant", "system", "tool"]);
const OPTIONAL_STRINGS = ["createdAt", "tool_call_id", "mode", "runId", "agentId", "partType", "toolName"] as const;

/** The problems of a message's own fields: id, role, and the typed optional fields of StoredMessage. */
export function storedMessageProblems(value: unknown): FieldProblem[] {
  if (!isPlainObject(value)) return [{ field: "", message: "must be a plain object" }];
  const problems: FieldProblem[] = [];
  if (typeof value.id !== "string" || value.id === "") problems.push({ field: "id", message: "must be a non-empty string" });
  if (typeof value.role !== "string" || !ROLES.has(value.role)) problems.push({ field: "role", message: `must be one of ${[...ROLES].join(", ")}` });
  for (const field of OPTIONAL_STRINGS) {
    if (value[field] !== undefined && typeof value[field] !== "string") problems.push({ field, message: "must be a string when present" });
  }
  const content = value.content;
  if (content !== undefined && content !== null && typeof content !== "string" && !Array.isArray(content)) {
    problems.push({ field: "content", message: "must be a string, null or an array of content parts" });
  }
  if (value.tool_calls !== undefined && !Array.isArray(value.tool_calls)) problems.push({ field: "tool_calls", message: "must be an array when present" });
  if (value.duration !== undefined && typeof value.duration !== "number") problems.push({ field: "duration", message: "must be a number (milliseconds) when present" });
  if (value.includeInContext !== undefined && typeof value.includeInContext !== "boolean") problems.push({ field: "includeInContext", message: "must be a boolean when present" });
  if (value.pinned !== undefined && typeof value.pinned !== "boolean") problems.push({ field: "pinned", message: "must be a boolean when present" });
  return problems;
}

/** The problems of a summary record's own fields: the store only requires a non-empty string id. */
export function storedSummaryRecordProblems(value: unknown): FieldProblem[] {
  if (!isPlainObject(value)) return [{ field: "", message: "must be a plain object" }];
  if (typeof value.id !== "string" || value.id === "") return [{ field: "id", message: "must be a non-empty string" }];
  return [];
}
