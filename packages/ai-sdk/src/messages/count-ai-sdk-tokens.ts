// Token count of an AI SDK request. The provider behind the AI SDK is not known to the renderer, so
// the request is counted with OpenAI's published Chat Completions formula, the one core's
// countChatRequestTokens uses for any { role, content } format:
//
//   3 (reply priming) + per message: 3 + tokens(role) + tokens(content)
//   (the system prompt counts as one "system" message) + the tool definitions, as OpenAI counts them.
//
// Content is counted part by part: text and reasoning by their text; a tool call as 3 + its name and
// the JSON of its input; a tool result as 3 + its tool name and its output (text, or JSON); an image
// as 765 (OpenAI's high-detail 1024×1024 image), another file as 1,600 (one PDF page, Anthropic's
// figure) unless it is inline text; anything else by its JSON. Counted with the model's tokenizer,
// this is exact for OpenAI text messages and close for the other providers and for tool parts.
import { countChatRequestTokens, type Tokenizer, type ToolDefinition } from "@ctxpipe/core";
import type { AiSdkRequest } from "./ai-sdk-request.js";
import { isRecord } from "./read-model-content.js";

export const AI_SDK_REPLY_PRIMING = 3;
export const AI_SDK_TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_TOOL_PART = 3;
const IMAGE_TOKENS = 765;
const FILE_TOKENS = 1600;

function jsonTokens(value: unknown, tokenizer: Tokenizer): number {
  try {
    return tokenizer.count(JSON.stringify(value) ?? "");
  } catch {
    return 0;
  }
}

function outputTokens(output: unknown, tokenizer: Tokenizer): number {
  if (!isRecord(output)) return 0;
  if (typeof output.value === "string") return tokenizer.count(output.value);
  if (output.type === "execution-denied") return typeof output.reason === "string" ? tokenizer.count(output.reason) : 0;
  if (output.type === "content" && Array.isArray(output.value)) {
    let total = 0;
    for (const entry of output.value) total += isRecord(entry) && typeof entry.text === "string" ? tokenizer.count(entry.text) : countAiSdkPartTokens(entry, tokenizer);
    return total;
  }
  return jsonTokens(output.value, tokenizer);
}

/** Tokens of one content part of a message. */
export function countAiSdkPartTokens(part: unknown, tokenizer: Tokenizer): number {
  if (!isRecord(part)) return 0;
  switch (part.type) {
    case "text":
    case "reasoning":
      return typeof part.text === "string" ? tokenizer.count(part.text) : 0;
    case "tool-call":
      return TOKENS_PER_TOOL_PART + tokenizer.count(String(part.toolName)) + jsonTokens(part.input ?? {}, tokenizer);
    case "tool-result":
      return TOKENS_PER_TOOL_PART + tokenizer.count(String(part.toolName)) + outputTokens(part.output, tokenizer);
    case "image":
      return IMAGE_TOKENS;
    case "file": {
      const data = part.data;
      if (isRecord(data) && data.type === "text" && typeof data.text === "string") return tokenizer.count(data.text);
      return typeof part.mediaType === "string" && part.mediaType.startsWith("image") ? IMAGE_TOKENS : FILE_TOKENS;
    }
    default:
      return jsonTokens(part, tokenizer);
  }
}

/** Tokens of a message's content: a string, or its parts. */
export function countAiSdkContentTokens(content: unknown, tokenizer: Tokenizer): number {
  if (typeof content === "string") return tokenizer.count(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content) total += countAiSdkPartTokens(part, tokenizer);
  return total;
}

/** The framing of one message around its content. */
export function countAiSdkMessageFraming(role: string, tokenizer: Tokenizer): number {
  return AI_SDK_TOKENS_PER_MESSAGE + tokenizer.count(role);
}

/** Tokens the tool definitions add, as OpenAI counts function definitions. */
export function countAiSdkToolTokens(tools: ReadonlyArray<ToolDefinition>, tokenizer: Tokenizer): number {
  return tools.length === 0 ? 0 : countChatRequestTokens({ messages: [] }, tokenizer, { tools, replyPriming: 0 });
}

/** Tokens of the whole request: reply priming, the system prompt, every message and the tool definitions. */
export function countAiSdkRequestTokens(request: AiSdkRequest, tokenizer: Tokenizer, tools: ReadonlyArray<ToolDefinition> = []): number {
  let total = AI_SDK_REPLY_PRIMING;
  if (request.system !== undefined) total += countAiSdkMessageFraming("system", tokenizer) + tokenizer.count(request.system);
  for (const message of request.messages) total += countAiSdkMessageFraming(message.role, tokenizer) + countAiSdkContentTokens(message.content, tokenizer);
  return total + countAiSdkToolTokens(tools, tokenizer);
}
