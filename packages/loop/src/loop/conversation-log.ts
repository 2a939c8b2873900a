// Where one loop call reads and writes its conversation: the store under a conversation id, or, with
// no id (chat mode: no conversation id, no history), a log that lives only for the call.
import type { OffloadedText } from "@ctxpipe/core";
import { type ConversationStore, type OffloadedRecord, type StoredMessage, type StoredSummaryRecord, supportsOffloading } from "@ctxpipe/store";
import { deepFreeze } from "./deep-freeze.js";

export interface ConversationLog {
  readonly conversationId: string | undefined;
  /** Resolves once the messages are durable; `onWritten`, when the store can tell, once a load finds them. */
  append(messages: ReadonlyArray<StoredMessage>, onWritten?: () => void): Promise<void>;
  appendSummaries(records: ReadonlyArray<StoredSummaryRecord>): Promise<void>;
  load(): Promise<{ messages: ReadonlyArray<StoredMessage>; summaries: ReadonlyArray<StoredSummaryRecord> }>;
  /** Keeps texts a build left out (report.offloaded); a handle already kept stays as it is. */
  appendOffloaded(records: ReadonlyArray<OffloadedRecord>): Promise<void>;
  loadOffloaded(handle: string): Promise<OffloadedRecord | undefined>;
  /** Whether the conversation has offloaded text (from this call or earlier ones). */
  hasOffloaded(): Promise<boolean>;
  /**
   * Handles this process has had the store keep for the conversation (durable once their append
   * resolved): a build names every text it cleared, and later calls need not hand them to the store again.
   */
  readonly storedHandles: Set<string>;
}

/** How many conversations per store this process remembers stored handles for; the oldest goes first. */
const REMEMBERED_CONVERSATIONS = 64;
const handlesByStore = new WeakMap<ConversationStore, Map<string, Set<string>>>();

function storedHandlesOf(store: ConversationStore, conversationId: string): Set<string> {
  let byConversation = handlesByStore.get(store);
  if (byConversation === undefined) {
    byConversation = new Map();
    handlesByStore.set(store, byConversation);
  }
  const handles = byConversation.get(conversationId) ?? new Set<string>();
  byConversation.delete(conversationId);
  byConversation.set(conversationId, handles);
  if (byConversation.size > REMEMBERED_CONVERSATIONS) byConversation.delete(byConversation.keys().next().value!);
  return handles;
}

export function storeLog(store: ConversationStore, conversationId: string): ConversationLog {
  // Offloaded text is never taken back: once the conversation has some, the call need not ask again.
  let hasOffloaded = false;
  // A store written before offloading existed: the texts live as long as the call, so retrieve_context
  // still works within it.
  const storedHandles = supportsOffloading(store) ? storedHandlesOf(store, conversationId) : new Set<string>();
  const offloaded = supportsOffloading(store)
    ? {
        appendOffloaded: (records: ReadonlyArray<OffloadedRecord>) => store.appendOffloaded(conversationId, records),
        loadOffloaded: (handle: string) => store.loadOffloaded(conversationId, handle),
        hasOffloaded: async () => {
          hasOffloaded ||= storedHandles.size > 0 || (await store.listOffloaded(conversationId)).length > 0;
          return hasOffloaded;
        },
      }
    : memoryOffloads();
  return {
    conversationId,
    append: (messages, onWritten) => (onWritten === undefined ? store.append(conversationId, messages) : store.append(conversationId, messages, { onWritten })),
    appendSummaries: (records) => store.appendSummaries(conversationId, records),
    load: () => store.load(conversationId),
    ...offloaded,
    storedHandles,
  };
}

/**
 * A log that lives for one call. It keeps deep-frozen copies, as the stores hand out, so every turn's
 * build gets the same items for the messages the call already had (see importStoredMessages).
 */
export function callLog(): ConversationLog {
  const messages: StoredMessage[] = [];
  const summaries: StoredSummaryRecord[] = [];
  return {
    conversationId: undefined,
    append: async (added, onWritten) => {
      for (const message of added) messages.push(deepFreeze(structuredClone(message)));
      onWritten?.();
    },
    appendSummaries: async (added) => {
      summaries.push(...added);
    },
    load: async () => ({ messages: [...messages], summaries: [...summaries] }),
    ...memoryOffloads(),
    storedHandles: new Set(),
  };
}

function memoryOffloads(): Pick<ConversationLog, "appendOffloaded" | "loadOffloaded" | "hasOffloaded"> {
  const records = new Map<string, OffloadedRecord>();
  return {
    appendOffloaded: async (added) => {
      for (const record of added) if (!records.has(record.handle)) records.set(record.handle, record);
    },
    loadOffloaded: async (handle) => records.get(handle),
    hasOffloaded: async () => records.size > 0,
  };
}

/**
 * Per set of stored handles, a copy of the last report.offloaded whose texts are all in it. The next
 * build's list starts with nearly the same texts: those are passed over by a comparison each, and only
 * the texts after the first that differs are looked up.
 */
const storedLists = new WeakMap<ReadonlySet<string>, ReadonlyArray<OffloadedText>>();

/** The texts of `offloaded` whose handles are not in `storedHandles`, in order. */
export function notStoredYet(offloaded: ReadonlyArray<OffloadedText>, storedHandles: ReadonlySet<string>): OffloadedText[] {
  const stored = storedLists.get(storedHandles) ?? [];
  const limit = Math.min(stored.length, offloaded.length);
  let start = 0;
  while (start < limit && (offloaded[start] === stored[start] || offloaded[start]!.handle === stored[start]!.handle)) start++;
  const fresh: OffloadedText[] = [];
  for (let index = start; index < offloaded.length; index++) if (!storedHandles.has(offloaded[index]!.handle)) fresh.push(offloaded[index]!);
  return fresh;
}

/** Notes that every text of `offloaded` is now in `storedHandles` (call once the store took the new ones). */
export function rememberStored(offloaded: ReadonlyArray<OffloadedText>, storedHandles: ReadonlySet<string>): void {
  storedLists.set(storedHandles, offloaded.slice());
}
