// Token count of an Anthropic Messages request. Always an approximation: Anthropic publishes no local
// tokenizer for Claude (exact counts come only from its count_tokens endpoint), so the text is counted
// with the build's tokenizer, tool inputs and tool definitions as their JSON, and each message and
// tool block gets a small framing overhead. Media are counted by Anthropic's published sizes.
import type { Tokenizer } from "@ctxpipe/core";
import type { AnthropicContentBlock, AnthropicMessage, AnthropicMessagesRequest, AnthropicTool } from "./anthropic-messages-request.js";

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
  /** The tool definitions, counted without their cache_control markers (which are not prompt text). */
  readonly tools?: number;
}

/** Running totals of the messages' tokens, overhead included: entry i is the tokens of messages[0..i). */
export function anthropicMessagesBefore(messageContent: ReadonlyArray<number>): number[] {
  const totals = [0];
  for (const content of messageContent) totals.push(totals.at(-1)! + ANTHROPIC_TOKENS_PER_MESSAGE + content);
  return totals;
}

/** The system prompt's text: a string, or text blocks (a cache breakpoint needs a block). */
function systemTokens(system: AnthropicMessagesRequest["system"], tokenizer: Tokenizer): number {
  if (system === undefined) return 0;
  if (typeof system === "string") return tokenizer.count(system);
  return system.reduce((total, block) => total + tokenizer.count(block.text), 0);
}

/** The tool definitions as JSON; a cache breakpoint marks where caching stops and adds no input tokens. */
export function countAnthropicToolTokens(tools: ReadonlyArray<AnthropicTool>, tokenizer: Tokenizer): number {
  return tokenizer.count(JSON.stringify(tools.map(({ cache_control: _marker, ...tool }) => tool)));
}

export function countAnthropicMessagesTokens(request: AnthropicMessagesRequest, tokenizer: Tokenizer, known: KnownAnthropicTokenCounts = {}): number {
  let total = known.system ?? systemTokens(request.system, tokenizer);
  request.messages.forEach((message, index) => {
    total += ANTHROPIC_TOKENS_PER_MESSAGE + (known.messageContent?.[index] ?? contentTokens(message, tokenizer));
  });
  if (request.tools !== undefined && request.tools.length > 0) total += known.tools ?? countAnthropicToolTokens(request.tools, tokenizer);
  return total;
}
