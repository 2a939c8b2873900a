// Token count of a Chat Completions request, as OpenAI reports it in `usage.prompt_tokens`:
//
//   3 (the reply is primed with <|start|>assistant<|message|>)
// + per message: 3 + tokens(role) + tokens(content) [+ tokens(name) + 1]
//                + per tool call: 3 + tokens(name) + tokens(arguments)
// + tool definitions (see countOpenAIChatToolTokens).
//
// The message part is OpenAI's published formula and matches the API exactly for text messages
// (docs/budget.md lists the checked examples). Tool calls in the history and nested parameter
// schemas follow no published formula; their counts are close, not exact.
import type { Tokenizer } from "../../spec/tokenizer.js";
import type { OpenAIChatMessage, OpenAIChatRequest, OpenAIChatTool } from "./openai-chat-request.js";

const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_NAME = 1;
/** Tokens OpenAI adds to every request to prime the reply. */
export const REPLY_PRIMING = 3;
const TOKENS_PER_TOOL_CALL = 3;
const LOW_DETAIL_IMAGE = 85;
const HIGH_DETAIL_IMAGE = 765;

// Tool definitions are rendered into a hidden system section; OpenAI's cookbook measured these
// constants against the API. They differ by encoding family only in the per-function start.
const TOOL_FUNCTION_START_O200K = 7;
const TOOL_FUNCTION_START_CL100K = 10;
const TOOL_PROPERTIES_START = 3;
const TOOL_PROPERTY = 3;
const TOOL_ENUM_START = -3;
const TOOL_ENUM_ITEM = 3;
const TOOLS_END = 12;

function contentTokens(message: OpenAIChatMessage, tokenizer: Tokenizer, stringContentTokens: number | undefined): number {
  const content = message.content;
  if (content === null) return 0;
  if (typeof content === "string") return stringContentTokens ?? tokenizer.count(content);
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

/**
 * `stringContentTokens`: the count of a string `content` when the caller already has it (the renderer
 * reuses the item's count from the compress stage instead of tokenizing the same text twice).
 */
export function countOpenAIChatMessageTokens(message: OpenAIChatMessage, tokenizer: Tokenizer, stringContentTokens?: number): number {
  let total = TOKENS_PER_MESSAGE + tokenizer.count(message.role) + contentTokens(message, tokenizer, stringContentTokens);
  if ("name" in message && typeof message.name === "string") total += tokenizer.count(message.name) + TOKENS_PER_NAME;
  if (message.role === "assistant" && message.tool_calls !== undefined) {
    for (const call of message.tool_calls) total += TOKENS_PER_TOOL_CALL + tokenizer.count(call.function.name) + tokenizer.count(call.function.arguments);
  }
  return total;
}

const withoutFinalPeriod = (text: string) => (text.endsWith(".") ? text.slice(0, -1) : text);

function stringOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

/** Tokens the tool definitions add to a request. */
export function countOpenAIChatToolTokens(tools: ReadonlyArray<OpenAIChatTool>, tokenizer: Tokenizer): number {
  if (tools.length === 0) return 0;
  const functionStart = tokenizer.name === "cl100k_base" ? TOOL_FUNCTION_START_CL100K : TOOL_FUNCTION_START_O200K;
  let total = TOOLS_END;
  for (const { function: definition } of tools) {
    total += functionStart + tokenizer.count(`${definition.name}:${withoutFinalPeriod(definition.description ?? "")}`);
    const properties = definition.parameters.properties;
    if (typeof properties !== "object" || properties === null) continue;
    const entries = Object.entries(properties as Record<string, unknown>);
    if (entries.length === 0) continue;
    total += TOOL_PROPERTIES_START;
    for (const [key, raw] of entries) {
      const property = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
      total += TOOL_PROPERTY;
      if (Array.isArray(property.enum)) {
        total += TOOL_ENUM_START;
        for (const value of property.enum) total += TOOL_ENUM_ITEM + tokenizer.count(stringOf(value));
      }
      total += tokenizer.count(`${key}:${stringOf(property.type ?? "")}:${withoutFinalPeriod(stringOf(property.description ?? ""))}`);
    }
  }
  return total;
}

export function countOpenAIChatTokens(request: OpenAIChatRequest, tokenizer: Tokenizer, messageTokens?: ReadonlyArray<number>): number {
  let total = REPLY_PRIMING;
  const { messages } = request;
  for (let index = 0; index < messages.length; index++) total += messageTokens?.[index] ?? countOpenAIChatMessageTokens(messages[index]!, tokenizer);
  if (request.tools !== undefined) total += countOpenAIChatToolTokens(request.tools, tokenizer);
  return total;
}
