// The peer baseline for the agent loop: LangChain.js `trimMessages` keeping the newest messages that
// fit, with the best counter a careful user would write — exact o200k counts (gpt-tokenizer) memoized
// per message, plus OpenAI's per-message overhead. What remains per turn is trimMessages' own work.
import { type BaseMessage, type MessageContent, trimMessages } from "@langchain/core/messages";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

// Special-token lookalikes such as "<|endoftext|>" are plain text in a stored message.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
/** OpenAI chat formatting: 3 tokens per message plus its role (one token), 3 to prime the reply. */
const TOKENS_PER_MESSAGE = 3 + 1;
const TOKENS_PER_REPLY = 3;

export class TrimMessagesBaseline {
  // trimMessages copies every message before counting it, so a cache keyed by the object it passes
  // would only hit within one call. The copy keeps the message id, which therefore keys the cache
  // across turns; messages without an id fall back to their object.
  readonly #countsById = new Map<string, number>();
  readonly #countsByObject = new WeakMap<BaseMessage, number>();

  /** The counter given to trimMessages: the request's tokens for these messages. */
  readonly countTokens = (messages: ReadonlyArray<BaseMessage>): number => {
    let total = TOKENS_PER_REPLY;
    for (const message of messages) total += this.countMessage(message);
    return total;
  };

  /** One message's tokens, counted once and remembered. */
  countMessage(message: BaseMessage): number {
    const id = message.id;
    let count = id === undefined ? this.#countsByObject.get(message) : this.#countsById.get(id);
    if (count === undefined) {
      count = countMessageTokens(message);
      if (id === undefined) this.#countsByObject.set(message, count);
      else this.#countsById.set(id, count);
    }
    return count;
  }

  /** The newest messages within `maxTokens`, starting on a human message, the leading system message kept. */
  trim(messages: BaseMessage[], maxTokens: number): Promise<BaseMessage[]> {
    return trimMessages(messages, {
      maxTokens,
      tokenCounter: this.countTokens,
      strategy: "last",
      startOn: "human",
      includeSystem: true,
      allowPartial: false,
    });
  }
}

function countMessageTokens(message: BaseMessage): number {
  let total = TOKENS_PER_MESSAGE + countContent(message.content);
  const calls = "tool_calls" in message && Array.isArray(message.tool_calls) ? (message.tool_calls as Array<{ name: string; args: unknown }>) : [];
  for (const call of calls) total += countTokens(call.name, PLAIN_TEXT) + countTokens(JSON.stringify(call.args), PLAIN_TEXT);
  return total;
}

function countContent(content: MessageContent): number {
  if (typeof content === "string") return countTokens(content, PLAIN_TEXT);
  let total = 0;
  for (const block of content) if (typeof block === "object" && block.type === "text" && typeof block.text === "string") total += countTokens(block.text, PLAIN_TEXT);
  return total;
}
