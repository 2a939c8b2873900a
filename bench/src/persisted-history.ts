// The benchmark's conversation as the loops persist it (chat mode's fields), written into a store in
// batches, for the rows that load it back.
import type { ConversationStore, StoredMessage } from "@ctxpipe/store";
import type { StoredMessage as GeneratedMessage } from "./generate-conversation.js";

const BATCH = 500;

/** A generated message with the mode and run id chat mode stamps, tool results marked. */
export function asPersisted(message: GeneratedMessage): StoredMessage {
  return { ...message, mode: "agent", runId: "chat-bench", ...(message.role === "tool" ? { partType: "tool_result" } : {}) } as StoredMessage;
}

/** Appends `messages` to `conversationId` in batches (one durable write each). */
export async function persistHistory(store: ConversationStore, conversationId: string, messages: ReadonlyArray<GeneratedMessage>): Promise<void> {
  for (let from = 0; from < messages.length; from += BATCH) await store.append(conversationId, messages.slice(from, from + BATCH).map(asPersisted));
}
