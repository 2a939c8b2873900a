// The counter a careful AI SDK user would write to keep a prompt under a budget: exact o200k counts
// (gpt-tokenizer) remembered per message object, with OpenAI's chat overhead, the same formula the
// trimMessages baseline uses. pruneMessages returns new objects for the messages it changes, so those
// are counted again each turn: that is the peer's real cost, not a handicap added here.
import type { ModelMessage } from "ai";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
/** OpenAI chat formatting: 3 tokens per message plus its role, 3 to prime the reply. */
const TOKENS_PER_MESSAGE = 3 + 1;
const TOKENS_PER_REPLY = 3;

export class ModelMessagesCounter {
  readonly #counts = new WeakMap<ModelMessage, number>();

  /** The request's tokens: the system prompt, every message, the reply's priming. */
  countRequest(system: string, messages: ReadonlyArray<ModelMessage>): number {
    let total = TOKENS_PER_REPLY + TOKENS_PER_MESSAGE + countTokens(system, PLAIN_TEXT);
    for (const message of messages) total += this.countMessage(message);
    return total;
  }

  countMessage(message: ModelMessage): number {
    let count = this.#counts.get(message);
    if (count === undefined) {
      count = TOKENS_PER_MESSAGE + countContent(message);
      this.#counts.set(message, count);
    }
    return count;
  }
}

function countContent(message: ModelMessage): number {
  if (typeof message.content === "string") return countTokens(message.content, PLAIN_TEXT);
  let total = 0;
  for (const part of message.content) {
    if (part.type === "text" || part.type === "reasoning") total += countTokens(part.text, PLAIN_TEXT);
    else if (part.type === "tool-call") total += countTokens(part.toolName, PLAIN_TEXT) + countTokens(JSON.stringify(part.input), PLAIN_TEXT);
    else if (part.type === "tool-result") {
      const output = part.output;
      total += countTokens(output.type === "text" || output.type === "error-text" ? output.value : JSON.stringify(output), PLAIN_TEXT);
    }
  }
  return total;
}
