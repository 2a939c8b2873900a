// Whether a store keeps token counts: the methods are optional on ConversationStore, so stores written
// before them still compile (the loops then count every text in a new process).
import type { ConversationStore } from "./conversation-store.js";

/** A store that keeps token counts (both built-in stores do). */
export type TokenCountingStore = ConversationStore & Required<Pick<ConversationStore, "appendTokenCounts" | "loadTokenCounts">>;

/** Whether `store` implements appendTokenCounts and loadTokenCounts. */
export function supportsTokenCounts(store: ConversationStore): store is TokenCountingStore {
  return typeof store.appendTokenCounts === "function" && typeof store.loadTokenCounts === "function";
}
