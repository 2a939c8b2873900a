// Token count of an Anthropic Messages request. Always an approximation: Anthropic publishes no local
// tokenizer for Claude (exact counts come only from its count_tokens endpoint), so the text is counted
// with the build's tokenizer, tool inputs and tool definitions as their JSON, and each message and
// tool block gets a small framing overhead. Media are counted by Anthropic's published sizes.
import type { Tokenizer } from "@ctxpipe/core";
import type { AnthropicContentBlock, AnthropicMessage, AnthropicMessagesRequest } from "./anthropic-messages-request.js";

/** Role marker and turn separators around each message (an estimate: Anthropic does not publish it). */
export const ANTHROPIC_TOKENS_PER_MESSAGE = 3;
/** Framing of a tool_use or tool_result block around its name, id and content. */
const TOKENS_PER_TOOL_BLOCK = 3;
/** An image is about width × height / 750 tokens; images are scaled to at most ~1.15 megapixels, ~1,600 tokens. */
const IMAGE_TOKENS = 1600;
/** A PDF is read page by page as text and an image; without opening it, it is counted as one page. */
const PDF_TOKENS = 1600;

export function countAnthropicBlockTokens(block: AnthropicContentBlock, tokenizer: Tokenizer): number {
  switch (block.type) {
    case "text":
      return tokenizer.count(block.text);
    case "image":
      return IMAGE_TOKENS;
    case "document":
      return block.source.type === "text" ? tokenizer.count(block.source.data) : PDF_TOKENS;
    case "tool_use":
      return TOKENS_PER_TOOL_BLOCK + tokenizer.count(block.name) + tokenizer.count(JSON.stringify(block.input));
    case "tool_result": {
      const content = typeof block.content === "string" ? tokenizer.count(block.content) : block.content.reduce((sum, part) => sum + tokenizer.count(part.text), 0);
      return TOKENS_PER_TOOL_BLOCK + content;
    }
    // Replayed thinking is counted although the API may leave earlier turns' thinking out of the
    // window: for a budget, counting too much is the safe mistake.
    case "thinking":
      return tokenizer.count(block.thinking);
    case "redacted_thinking":
      return tokenizer.count(block.data);
  }
}

function contentTokens(message: AnthropicMessage, tokenizer: Tokenizer): number {
  let total = 0;
  for (const block of message.content) total += countAnthropicBlockTokens(block, tokenizer);
  return total;
}

export function countAnthropicMessageTokens(message: AnthropicMessage, tokenizer: Tokenizer): number {
  return ANTHROPIC_TOKENS_PER_MESSAGE + contentTokens(message, tokenizer);
}

/** Counts already known, e.g. cached per item by the renderer plugin: the system prompt, each message's content. */
export interface KnownAnthropicTokenCounts {
  readonly system?: number;
  readonly messageContent?: ReadonlyArray<number>;
}

export function countAnthropicMessagesTokens(request: AnthropicMessagesRequest, tokenizer: Tokenizer, known: KnownAnthropicTokenCounts = {}): number {
  let total = known.system ?? (request.system === undefined ? 0 : tokenizer.count(request.system));
  request.messages.forEach((message, index) => {
    total += ANTHROPIC_TOKENS_PER_MESSAGE + (known.messageContent?.[index] ?? contentTokens(message, tokenizer));
  });
  if (request.tools !== undefined && request.tools.length > 0) total += tokenizer.count(JSON.stringify(request.tools));
  return total;
}
