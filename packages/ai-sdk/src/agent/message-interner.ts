// `ai` converts a step's messages into new provider-prompt objects before every model call, so a
// middleware never sees the same message object twice. The importer and the pipeline reuse their
// work per object: this hands back, for a message equal to one of the previous call's, that earlier
// object, so a long agent run tokenizes only what is new. Serializing is linear in the prompt's size,
// far cheaper than counting its tokens again.
import type { ModelMessage } from "ai";
import type { ProviderMessage } from "./provider-prompt.js";

export class MessageInterner {
  #previous = new Map<string, ModelMessage>();
  // Binary data is keyed by object: equal bytes in two objects only cost a second import.
  readonly #binaryIds = new WeakMap<object, number>();
  #nextBinaryId = 0;

  /**
   * The messages, each replaced by the equal one of the previous call when there was one. The
   * provider prompt's messages are valid ModelMessages as they are (its parts are a subset).
   */
  intern(messages: ReadonlyArray<ProviderMessage>): ModelMessage[] {
    const current = new Map<string, ModelMessage>();
    const interned = messages.map((message) => {
      // Equal messages at two places stay two objects (the second "yes" of a conversation is not a
      // copy of the first): each is keyed by its content and how many equal ones came before it.
      const content = this.#keyOf(message);
      let key = content;
      for (let nth = 1; current.has(key); nth++) key = `${nth}#${content}`;
      const known = this.#previous.get(key) ?? (message as ModelMessage);
      current.set(key, known);
      return known;
    });
    // Only the last call's messages are kept: an agent's next call repeats them.
    this.#previous = current;
    return interned;
  }

  #keyOf(message: ProviderMessage): string {
    return JSON.stringify(message, (_key, value: unknown) => {
      if (typeof value === "object" && value !== null && (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)) return `binary:${this.#binaryId(value)}`;
      return value;
    });
  }

  #binaryId(value: object): number {
    let id = this.#binaryIds.get(value);
    if (id === undefined) {
      id = this.#nextBinaryId++;
      this.#binaryIds.set(value, id);
    }
    return id;
  }
}
