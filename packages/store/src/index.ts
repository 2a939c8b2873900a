// @ctxpipe/store: where a conversation lives between turns. The JSON-lines store needs no server;
// the PostgreSQL store (@ctxpipe/store/postgres) serves many processes.
export type { ConversationInfo, ConversationStore, LoadedConversation, StoreWarning } from "./conversation-store.js";
export { STORE_CLOSED, StoreClosedError } from "./errors/store-closed-error.js";
export { STORE_CORRUPT, StoreCorruptError } from "./errors/store-corrupt-error.js";
export { STORE_INPUT_INVALID, type StoreInputIssue, StoreInputError } from "./errors/store-input-error.js";
export { JsonlStore, type JsonlStoreOptions } from "./jsonl/jsonl-store.js";
export { LOG_FORMAT, LOG_VERSION } from "./jsonl/log-record.js";
export { STORE_LOCK_TIMEOUT, StoreLockTimeoutError } from "./jsonl/store-lock-timeout-error.js";
export type { OffloadedInfo, OffloadedRecord } from "./offloaded-record.js";
export type { StoredMessage, StoredSummaryRecord } from "./stored-message.js";
export { MAX_CONVERSATION_ID_LENGTH, validateConversationId } from "./validate-conversation-id.js";
export { type FieldProblem, jsonValueProblems } from "./validate-json-value.js";
export { validateMessages } from "./validate-messages.js";
export { OFFLOADED_HANDLE_PATTERN, offloadedRecordProblems, validateOffloadedRecords } from "./validate-offloaded-records.js";
export { type OffloadingStore, supportsOffloading } from "./supports-offloading.js";
export { validateSummaryRecords } from "./validate-summary-records.js";
