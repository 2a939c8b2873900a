// Conversation ids become file names and database keys: bounded, printable enough, and well-formed
// Unicode so that every store can give the same id back from list().
import { StoreInputError } from "./errors/store-input-error.js";

export const MAX_CONVERSATION_ID_LENGTH = 200;

/**
 * Returns the id, or throws StoreInputError with one issue at index -1, field "conversationId", when
 * it is not a non-empty, well-formed string of at most 200 UTF-16 code units without NUL.
 */
export function validateConversationId(conversationId: unknown): string {
  const message = conversationIdProblem(conversationId);
  if (message === undefined) return conversationId as string;
  throw new StoreInputError(typeof conversationId === "string" ? conversationId : String(conversationId), [{ index: -1, field: "conversationId", message }]);
}

function conversationIdProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return `must be a string, got ${value === null ? "null" : typeof value}`;
  if (value === "") return "must not be empty";
  if (value.length > MAX_CONVERSATION_ID_LENGTH) return `must be at most ${MAX_CONVERSATION_ID_LENGTH} characters, got ${value.length}`;
  if (value.includes("\u0000")) return "must not contain NUL";
  if (!value.isWellFormed()) return "must be well-formed Unicode (no lone surrogates)";
  return undefined;
}
