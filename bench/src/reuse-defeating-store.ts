// A store as the code before issue 24 met it, for the "reuse defeated" rows: every load hands back
// new message objects (so nothing keyed by them is reused) and the store keeps no token counts.
import type { ConversationStore, LoadedConversation } from "@ctxpipe/store";

export interface ReuseDefeatingOptions {
  /** Each load returns a copy of every message. Default true. */
  readonly copyMessages?: boolean;
  /** The token count methods are left out, so the loops neither read nor persist counts. Default true. */
  readonly hideTokenCounts?: boolean;
}

const TOKEN_COUNT_METHODS: ReadonlySet<PropertyKey> = new Set(["appendTokenCounts", "loadTokenCounts"]);

/** `store` with its reuse defeated; every other method is the store's own. */
export function reuseDefeatingStore(store: ConversationStore, options: ReuseDefeatingOptions = {}): ConversationStore {
  const copyMessages = options.copyMessages ?? true;
  const hideTokenCounts = options.hideTokenCounts ?? true;
  const hidden = (property: PropertyKey) => hideTokenCounts && TOKEN_COUNT_METHODS.has(property);
  const load = async (conversationId: string): Promise<LoadedConversation> => {
    const loaded = await store.load(conversationId);
    return copyMessages ? { ...loaded, messages: loaded.messages.map((message) => ({ ...message })) } : loaded;
  };
  // A proxy, so methods a store gains later pass through; they are bound to the store (its private fields).
  return new Proxy(store, {
    get(target, property) {
      if (hidden(property)) return undefined;
      if (property === "load") return load;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has: (target, property) => !hidden(property) && Reflect.has(target, property),
  });
}
