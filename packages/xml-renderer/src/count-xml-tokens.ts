// Tokens of an XML request. Its messages are plain chat messages, so they cost what the same messages
// cost in a Chat Completions request: OpenAI's published per-message formula, reply priming included.
import { countOpenAIChatMessageTokens, countOpenAIChatTokens, type Tokenizer } from "@ctxpipe/core";
import type { XmlMessage, XmlRequest } from "./xml-request.js";

export function countXmlMessageTokens(message: XmlMessage, tokenizer: Tokenizer): number {
  return countOpenAIChatMessageTokens(message, tokenizer);
}

/** The whole request; `messageTokens` are counts already known, by message index. */
export function countXmlTokens(request: XmlRequest, tokenizer: Tokenizer, messageTokens?: ReadonlyArray<number>): number {
  return countOpenAIChatTokens(request, tokenizer, messageTokens);
}
