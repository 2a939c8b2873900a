// The records a store keeps, in the stored message shape chat and run mode persist (an OpenAI-style message with an id,
// a date and run metadata). Core's importStoredMessages turns them into items; fields a store does not
// know are kept as they are.

/** One persisted conversation message (ConversationMessage, with OpenAI-like `tool_calls`). */
export interface StoredMessage {
  /** Unique within the conversation. */
  readonly id: string;
  readonly role: "user" | "assistant" | "system" | "tool";
  /** Text, content parts, or null (an assistant message that only calls tools). */
  readonly content?: string | null | ReadonlyArray<unknown>;
  /** ISO 8601. */
  readonly createdAt?: string;
  readonly tool_calls?: ReadonlyArray<unknown>;
  readonly tool_call_id?: string;
  readonly mode?: string;
  readonly runId?: string;
  readonly agentId?: string;
  /**
   * "error" on an assistant message that records an LLM failure; "tool_result" on tool messages;
   * "task_completed", "task_abandoned" (with `reason`) or "task_terminated" (with `terminatedBy`) on the
   * assistant message that records how a run ended.
   */
  readonly partType?: string;
  readonly toolName?: string;
  /** Milliseconds the tool took. */
  readonly duration?: number;
  readonly includeInContext?: boolean;
  /** true: compression never drops, clears, cuts or summarizes it, and the budget fit keeps it. */
  readonly pinned?: boolean;
  readonly [field: string]: unknown;
}

/** A persisted summary record (@ctxpipe/compression's SummaryRecord); the store only requires an id. */
export interface StoredSummaryRecord {
  readonly id: string;
  readonly [field: string]: unknown;
}
