// Where one loop call reads and writes its conversation: the store under a conversation id, or, with
// no id (chat mode: no conversation id, no history), a log that lives only for the call.
import type { ConversationStore, StoredMessage, StoredSummaryRecord } from "@ctxpipe/store";

export interface ConversationLog {
  readonly conversationId: string | undefined;
  append(messages: ReadonlyArray<StoredMessage>): Promise<void>;
  appendSummaries(records: ReadonlyArray<StoredSummaryRecord>): Promise<void>;
  load(): Promise<{ messages: ReadonlyArray<StoredMessage>; summaries: ReadonlyArray<StoredSummaryRecord> }>;
}

export function storeLog(store: ConversationStore, conversationId: string): ConversationLog {
  return {
    conversationId,
    append: (messages) => store.append(conversationId, messages),
    appendSummaries: (records) => store.appendSummaries(conversationId, records),
    load: () => store.load(conversationId),
  };
}

export function callLog(): ConversationLog {
  const messages: StoredMessage[] = [];
  const summaries: StoredSummaryRecord[] = [];
  return {
    conversationId: undefined,
    append: async (added) => {
      messages.push(...added);
    },
    appendSummaries: async (added) => {
      summaries.push(...added);
    },
    load: async () => ({ messages: [...messages], summaries: [...summaries] }),
  };
}
