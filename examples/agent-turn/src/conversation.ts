// src/conversation.ts
import { randomUUID } from "node:crypto";
import { type SummaryRecord, summaryRecordSchema } from "@ctxpipe/compression";
import { type BuildResult, importStoredMessages, type Item, type Pipeline } from "@ctxpipe/core";
import type { ConversationStore, StoredMessage } from "@ctxpipe/store";

/** One stored conversation, and the pipeline its turns are built with. */
export interface AgentConversation {
  readonly store: ConversationStore;
  readonly id: string;
  readonly pipeline: Pipeline;
  /** At most this many tokens of context per call (the model's window when not set). */
  readonly contextLimit?: number;
}

/** The history as build() takes it, and the summary records earlier builds made. */
export async function loadConversation(conversation: AgentConversation): Promise<{ items: Item[]; summaries: SummaryRecord[] }> {
  const { messages, summaries } = await conversation.store.load(conversation.id);
  return {
    items: importStoredMessages(messages), // the stored shape: { id, role, content, tool_calls?, tool_call_id?, createdAt, ... }
    summaries: summaries.map((record) => summaryRecordSchema.parse(record)),
  };
}

/** Persists the summary records a build made, so later builds apply them instead of summarizing again. */
export async function saveSummaryRecords(conversation: AgentConversation, result: BuildResult<unknown>): Promise<ReadonlyArray<SummaryRecord>> {
  const records = result.report.compression?.records ?? [];
  if (records.length > 0) await conversation.store.appendSummaries(conversation.id, records);
  return records;
}

/** Appends one message in the stored shape, with an id and a date. */
export async function appendMessage(conversation: AgentConversation, message: { readonly role: StoredMessage["role"]; readonly [field: string]: unknown }): Promise<StoredMessage> {
  const stored: StoredMessage = { id: randomUUID(), createdAt: new Date().toISOString(), ...message };
  await conversation.store.append(conversation.id, stored);
  return stored;
}

/** What one model call of a turn sent and got back. */
export interface ModelCall {
  readonly build: BuildResult<unknown>;
  /** Summary records this build made (already persisted). */
  readonly records: ReadonlyArray<SummaryRecord>;
  /** The tokens the provider reported: the request, the part it read from its prompt cache, the reply. */
  readonly usage: { readonly input: number; readonly cached: number; readonly output: number };
  /** The tools the model asked for, as `name(arguments)`; empty on the final answer. */
  readonly toolCalls: ReadonlyArray<string>;
}

export interface TurnResult {
  readonly answer: string;
  readonly calls: ReadonlyArray<ModelCall>;
}
