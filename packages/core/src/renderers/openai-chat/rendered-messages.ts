// The messages of the last list rendered, kept so that the next list, when it starts with the same
// items (an agent loop's next turn), reuses them with their token counts: a render then costs one
// comparison per item and the work for the new ones.
import type { Item } from "../../model/item.js";
import { sharedPrefixLength } from "../../pipeline/input-preparer.js";
import type { Items } from "../../pipeline/pipeline-hooks.js";
import type { OpenAIChatMessage } from "./openai-chat-request.js";

export interface RenderedList {
  /** A new array each time: the caller may hand it out. */
  readonly messages: OpenAIChatMessage[];
  /** Tokens of all the messages, per-message overhead included. */
  readonly tokens: number;
  /** Running totals: tokensBeforeMessage[i] is the tokens of messages[0..i) (messages.length + 1 entries). */
  readonly tokensBeforeMessage: ReadonlyArray<number>;
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
  #items: Items = [];
  #messages: OpenAIChatMessage[] = [];
  /** For each position p, the messages and tokens of items[0..p). */
  #messagesBefore: number[] = [0];
  #tokensBefore: number[] = [0];
  #dropped: Array<{ readonly item: Item; readonly reason: string; readonly position: number }> = [];

  render(items: Items, source: MessageSource): RenderedList {
    const sameKey = source.key.length === this.#key.length && source.key.every((part, index) => part === this.#key[index]);
    const shared = sameKey ? sharedPrefixLength(items, this.#items) : 0;
    const messages = this.#messages.slice(0, this.#messagesBefore[shared]);
    const messagesBefore = this.#messagesBefore.slice(0, shared + 1);
    const tokensBefore = this.#tokensBefore.slice(0, shared + 1);
    const dropped = this.#dropped.filter((entry) => entry.position < shared);
    let tokens = tokensBefore[shared]!;
    for (let position = shared; position < items.length; position++) {
      const item = items[position]!;
      const made = source.message(item);
      if ("reason" in made) dropped.push({ item, reason: made.reason, position });
      else {
        messages.push(made.message);
        tokens += made.tokens;
      }
      messagesBefore.push(messages.length);
      tokensBefore.push(tokens);
    }
    this.#key = source.key;
    this.#items = items.slice();
    this.#messages = messages;
    this.#messagesBefore = messagesBefore;
    this.#tokensBefore = tokensBefore;
    this.#dropped = dropped;
    return { messages: messages.slice(), tokens, tokensBeforeMessage: tokensBeforeMessage(messagesBefore, tokensBefore), dropped, messageIndexById: new LazyMap(() => indexById(items, messagesBefore)) };
  }
}

/** The running token total at each message boundary: an item that gave no message added no tokens. */
function tokensBeforeMessage(messagesBefore: ReadonlyArray<number>, tokensBefore: ReadonlyArray<number>): number[] {
  const totals = [0];
  for (let position = 1; position < messagesBefore.length; position++) {
    if (messagesBefore[position]! > messagesBefore[position - 1]!) totals.push(tokensBefore[position]!);
  }
  return totals;
}

function indexById(items: Items, messagesBefore: ReadonlyArray<number>): Map<string, number> {
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
