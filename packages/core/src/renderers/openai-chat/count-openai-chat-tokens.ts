// Token count of a Chat Completions request: the content plus OpenAI's per-message formatting
// overhead (3 tokens a message, 3 to prime the reply), tool calls and tool definitions. With an exact
// tokenizer this follows OpenAI's published formula for text messages; tool accounting is approximate.
import type { Tokenizer } from "../../spec/tokenizer.js";
import type { OpenAIChatMessage, OpenAIChatRequest } from "./openai-chat-request.js";

const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMING = 3;
const TOKENS_PER_TOOL_CALL = 3;
const LOW_DETAIL_IMAGE = 85;
const HIGH_DETAIL_IMAGE = 765;

function contentTokens(message: OpenAIChatMessage, tokenizer: Tokenizer): number {
  const content = message.content;
  if (content === null) return 0;
  if (typeof content === "string") return tokenizer.count(content);
  let total = 0;
  for (const part of content) {
    if (part.type === "text") total += tokenizer.count(part.text);
    // Images are billed by tiles, not by the length of their URL. Without the pixel size, a high
    // detail image is counted as a 1024x1024 one: 85 + 4 tiles x 170.
    else if (part.type === "image_url") total += part.image_url.detail === "low" ? LOW_DETAIL_IMAGE : HIGH_DETAIL_IMAGE;
    else total += tokenizer.count(JSON.stringify(part));
  }
  return total;
}

export function countOpenAIChatMessageTokens(message: OpenAIChatMessage, tokenizer: Tokenizer): number {
  let total = TOKENS_PER_MESSAGE + tokenizer.count(message.role) + contentTokens(message, tokenizer);
  if (message.role === "assistant" && message.tool_calls !== undefined) {
    for (const call of message.tool_calls) total += TOKENS_PER_TOOL_CALL + tokenizer.count(call.function.name) + tokenizer.count(call.function.arguments);
  }
  return total;
}

export function countOpenAIChatTokens(request: OpenAIChatRequest, tokenizer: Tokenizer, messageTokens?: ReadonlyArray<number>): number {
  let total = REPLY_PRIMING;
  request.messages.forEach((message, index) => {
    total += messageTokens?.[index] ?? countOpenAIChatMessageTokens(message, tokenizer);
  });
  if (request.tools !== undefined && request.tools.length > 0) total += tokenizer.count(JSON.stringify(request.tools));
  return total;
}
