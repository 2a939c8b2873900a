// Whether a store keeps offloaded text: the methods are optional on ConversationStore, so stores written
// before them still compile.
import type { ConversationStore } from "./conversation-store.js";

/** A store that keeps offloaded text (both built-in stores do). */
export type OffloadingStore = ConversationStore & Required<Pick<ConversationStore, "appendOffloaded" | "loadOffloaded" | "listOffloaded">>;

/** Whether `store` implements appendOffloaded, loadOffloaded and listOffloaded. */
export function supportsOffloading(store: ConversationStore): store is OffloadingStore {
  return typeof store.appendOffloaded === "function" && typeof store.loadOffloaded === "function" && typeof store.listOffloaded === "function";
}
