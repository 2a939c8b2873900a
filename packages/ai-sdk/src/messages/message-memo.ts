// Remembers the items each message object gave, so that importing the same history again (an agent
// does it before every model call, with the same message objects plus new ones) gives the same item
// objects: the pipeline keeps what it worked out per item object (validation, token counts), and a
// rebuild then costs in proportion to the new messages. It relies on the pipeline's own contract:
// a message is not modified once passed; pass a new object to change it.
import type { Item } from "@ctxpipe/core";

interface Entry {
  readonly index: number;
  readonly id: string;
  readonly items: ReadonlyArray<Item>;
}

export class MessageMemo {
  // Weak: a message the caller has dropped takes its items with it.
  readonly #entries = new WeakMap<object, Entry>();

  /** The items the message gave at this position under this id, if it was read so before. */
  lookup(message: unknown, index: number, id: string): ReadonlyArray<Item> | undefined {
    if (typeof message !== "object" || message === null) return undefined;
    const entry = this.#entries.get(message);
    return entry !== undefined && entry.index === index && entry.id === id ? entry.items : undefined;
  }

  remember(message: unknown, index: number, id: string, items: ReadonlyArray<Item>): void {
    if (typeof message === "object" && message !== null) this.#entries.set(message, { index, id, items });
  }
}

/**
 * Freezes what the importer made for an item (the item, its arrays and their entries, its metadata
 * and the record under metadata.extra), never the caller's own objects kept inside that record: an
 * item handed out again must not be changed by whoever got it first.
 */
export function freezeItem(item: Item): Item {
  for (const value of Object.values(item)) {
    if (!Array.isArray(value)) continue;
    for (const entry of value) Object.freeze(entry);
    Object.freeze(value);
  }
  const extra = item.metadata.extra;
  if (extra !== undefined) {
    for (const value of Object.values(extra)) if (typeof value === "object" && value !== null) Object.freeze(value);
    Object.freeze(extra);
  }
  Object.freeze(item.metadata);
  return Object.freeze(item);
}
