// The messages of the last list rendered, kept so that the next list, when it starts with the same
// items (an agent loop's next turn), reuses them with their token counts: a render then costs one
// comparison per item and the work for the new ones.
import type { Item } from "../../model/item.js";
import { sharedPrefixLength } from "../../pipeline/list-lineage.js";
import type { Items } from "../../pipeline/pipeline-hooks.js";
import type { OpenAIChatMessage } from "./openai-chat-request.js";

export interface RenderedList {
  /** A new array each time: the caller may hand it out. */
  readonly messages: OpenAIChatMessage[];
  /** Tokens of all the messages, per-message overhead included. */
  readonly tokens: number;
  /**
   * Running totals: tokensBeforeMessage[i] is the tokens of messages[0..i) (messages.length + 1
   * entries). A typed array: the pipeline keeps it until the next build, and the garbage collector
   * does not copy a typed array's numbers, as it does an array's.
   */
  readonly tokensBeforeMessage: Float64Array;
  /** Items that gave no message, with why. */
  readonly dropped: ReadonlyArray<{ readonly item: Item; readonly reason: string }>;
  /** For each item id, the index of its message; built on first read. */
  readonly messageIndexById: ReadonlyMap<string, number>;
}

export interface MessageSource {
  /** The key the messages and counts depend on besides the item (the tokenizer, the system role). */
  readonly key: ReadonlyArray<unknown>;
  message(item: Item): { message: OpenAIChatMessage; tokens: number } | { reason: string };
}

export class RenderedMessages {
  #key: ReadonlyArray<unknown> = [];
  // The last list rendered, kept without a copy: the pipeline's lists are not changed once made.
  #items: Items = [];
  #length = 0;
  // Kept and extended in place from render to render; what a render hands out is copied from them.
  #messages: OpenAIChatMessage[] = [];
  /** For each position p, the messages and tokens of items[0..p). */
  #messagesBefore: number[] = [0];
  #tokensBefore: number[] = [0];
  /** For each message boundary m, the tokens of messages[0..m). */
  #tokensBeforeMessage: number[] = [0];
  #dropped: Array<{ readonly item: Item; readonly reason: string; readonly position: number }> = [];

  render(items: Items, source: MessageSource): RenderedList {
    const sameKey = source.key.length === this.#key.length && source.key.every((part, index) => part === this.#key[index]);
    const shared = sameKey ? Math.min(this.#length, sharedPrefixLength(items, this.#items)) : 0;
    const messages = this.#messages;
    const messagesBefore = this.#messagesBefore;
    const tokensBefore = this.#tokensBefore;
    const totals = this.#tokensBeforeMessage;
    messages.length = messagesBefore[shared]!;
    messagesBefore.length = shared + 1;
    tokensBefore.length = shared + 1;
    totals.length = messages.length + 1;
    const dropped = this.#dropped.filter((entry) => entry.position < shared);
    // Until the loop is through, only the shared part is known good: a message that throws (a
    // tokenizer failing) must leave a state the next render reads correctly.
    this.#key = source.key;
    this.#items = items;
    this.#length = shared;
    let tokens = tokensBefore[shared]!;
    for (let position = shared; position < items.length; position++) {
      const item = items[position]!;
      const made = source.message(item);
      if ("reason" in made) dropped.push({ item, reason: made.reason, position });
      else {
        messages.push(made.message);
        tokens += made.tokens;
        // An item that gave no message added no tokens: the totals move at message boundaries only.
        totals.push(tokens);
      }
      messagesBefore.push(messages.length);
      tokensBefore.push(tokens);
    }
    this.#length = items.length;
    this.#dropped = dropped;
    // The message index is made on first read, from this render's positions (the kept ones change).
    const positions = Int32Array.from(messagesBefore);
    return { messages: messages.slice(), tokens, tokensBeforeMessage: Float64Array.from(totals), dropped, messageIndexById: new LazyMap(() => indexById(items, positions)) };
  }
}

function indexById(items: Items, messagesBefore: Int32Array): Map<string, number> {
  const index = new Map<string, number>();
  for (let position = 0; position < items.length; position++) {
    if (messagesBefore[position + 1]! > messagesBefore[position]!) index.set(items[position]!.id, messagesBefore[position]!);
  }
  return index;
}

/** A map made on first read: most builds of an agent loop never look an item's message up. */
class LazyMap<Key, Value> implements ReadonlyMap<Key, Value> {
  #map: Map<Key, Value> | undefined;
  readonly #make: () => Map<Key, Value>;

  constructor(make: () => Map<Key, Value>) {
    this.#make = make;
  }

  get #made(): Map<Key, Value> {
    this.#map ??= this.#make();
    return this.#map;
  }

  get size(): number {
    return this.#made.size;
  }
  get(key: Key): Value | undefined {
    return this.#made.get(key);
  }
  has(key: Key): boolean {
    return this.#made.has(key);
  }
  forEach(callback: (value: Value, key: Key, map: ReadonlyMap<Key, Value>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#made) callback.call(thisArg, value, key, this);
  }
  entries(): MapIterator<[Key, Value]> {
    return this.#made.entries();
  }
  keys(): MapIterator<Key> {
    return this.#made.keys();
  }
  values(): MapIterator<Value> {
    return this.#made.values();
  }
  [Symbol.iterator](): MapIterator<[Key, Value]> {
    return this.#made[Symbol.iterator]();
  }
}
