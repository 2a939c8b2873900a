// Tokens of a "langchain" request. LangChain sends a message list to whichever provider the model is
// for, so the count is OpenAI's published Chat Completions formula applied to the OpenAI shape of
// each message (3 tokens of framing per message, its role, content, name and tool calls), plus 3 to
// prime the reply and the tool definitions as OpenAI counts them. With an exact tokenizer that is
// OpenAI's own count; for other providers the tokenizer's approximation carries the difference.
import { countChatRequestTokens, countOpenAIChatMessageTokens, type Tokenizer, type ToolDefinition } from "@ctxpipe/core";
import type { BaseMessage } from "@langchain/core/messages";
import { toOpenAIChatMessage } from "./to-openai-chat-message.js";

/** Tokens of one message, framing included. */
export function countLangChainMessageTokens(message: BaseMessage, tokenizer: Tokenizer): number {
  return countOpenAIChatMessageTokens(toOpenAIChatMessage(message), tokenizer);
}

/** Tokens the request adds besides its messages: the reply priming and the tools. */
export function countLangChainFixedTokens(tokenizer: Tokenizer, tools: ReadonlyArray<ToolDefinition> = []): number {
  return countChatRequestTokens({ messages: [] }, tokenizer, { tools });
}

/** Tokens of a whole message list sent with these tools. */
export function countLangChainTokens(messages: ReadonlyArray<BaseMessage>, tokenizer: Tokenizer, tools: ReadonlyArray<ToolDefinition> = []): number {
  let total = countLangChainFixedTokens(tokenizer, tools);
  for (const message of messages) total += countLangChainMessageTokens(message, tokenizer);
  return total;
}
