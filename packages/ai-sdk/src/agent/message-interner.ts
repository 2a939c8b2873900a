// `ai` converts a step's messages into new provider-prompt objects before every model call, so a
// middleware never sees the same message object twice. The importer and the pipeline reuse their
// work per object: this hands back, for a message equal to the previous call's message at the same
// position, that earlier object, so a long agent run tokenizes only what is new. An agent's history
// grows at its end, so comparing position by position finds nearly every message; the comparison
// stops at the first shared reference (`ai` passes tool inputs and outputs through as they are), so
// it costs far less than serializing the prompt, let alone counting its tokens.
import type { ModelMessage } from "ai";
import type { ProviderMessage } from "./provider-prompt.js";

/** Deep equality of prompt values: plain objects, arrays, strings and numbers, bytes, URLs. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!same(a[index], b[index])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // Keys whose value is undefined do not count: `ai` writes `providerOptions: undefined` on parts.
  let count = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    count++;
    if (!same(left[key], right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) count--;
  return count === 0;
}

export class MessageInterner {
  #previous: ReadonlyArray<ModelMessage> = [];

  /**
   * The messages, each replaced by the previous call's message at its position when the two are
   * equal. The provider prompt's messages are valid ModelMessages as they are (its parts are a subset).
   */
  intern(messages: ReadonlyArray<ProviderMessage>): ModelMessage[] {
    const previous = this.#previous;
    const interned = messages.map((message, index) => {
      const earlier = previous[index];
      return earlier !== undefined && same(earlier, message) ? earlier : (message as ModelMessage);
    });
    this.#previous = interned;
    return interned;
  }
}
