// Tokens of a request in the shape most chat formats share: messages of `{ role, content }`, the content
// a string or a list of parts. Counted with OpenAI's published Chat Completions formula (the same
// pieces core's OpenAI renderer counts with), so a renderer whose request has this shape counts it in
// one line. The per-message overhead and the reply priming differ by provider, so both can be given.
import type { Tokenizer } from "../spec/tokenizer.js";
import type { ToolDefinition } from "../spec/tool-definition.js";
import { countOpenAIChatMessageTokens, countOpenAIChatToolTokens, REPLY_PRIMING } from "./openai-chat/count-openai-chat-tokens.js";
import type { OpenAIChatContentPart, OpenAIChatMessage, OpenAIChatTool } from "./openai-chat/openai-chat-request.js";

/** One message of a chat-shaped request. Parts with a string `text` count as that text. */
export interface ChatMessageLike {
  readonly role: string;
  readonly content: string | null | ReadonlyArray<object>;
  /** A participant name, as OpenAI's `name` field (counted with one extra token). */
  readonly name?: string | undefined;
}

export interface ChatRequestLike {
  readonly messages: ReadonlyArray<ChatMessageLike>;
}

export interface ChatTokenCountOptions {
  /** Framing around each message besides its role and content. Default 3, OpenAI's. */
  readonly tokensPerMessage?: number;
  /** Tokens added once per request to prime the reply. Default 3, OpenAI's. */
  readonly replyPriming?: number;
  /**
   * Tokens of a part that has no string `text` (an image, a file). Default: an OpenAI `image_url`
   * part by its detail (85 low, 765 otherwise), any other part by the tokens of its JSON.
   */
  readonly partTokens?: (part: object) => number;
  /** The tools the request declares, counted as OpenAI counts function definitions. Give `context.tools`. */
  readonly tools?: ReadonlyArray<ToolDefinition>;
}

const NO_TOKENS: Tokenizer = { specificationVersion: "v1", name: "none", exact: true, count: () => 0 };
/** OpenAI's framing per message: what its formula gives a message whose role and content cost nothing. */
const OPENAI_TOKENS_PER_MESSAGE = countOpenAIChatMessageTokens({ role: "user", content: "" }, NO_TOKENS);

function textOf(part: object): string | undefined {
  const text = (part as { text?: unknown }).text;
  return typeof text === "string" ? text : undefined;
}

/** Tokens of one message: framing, role, content and name. */
export function countChatMessageTokens(message: ChatMessageLike, tokenizer: Tokenizer, options: ChatTokenCountOptions = {}): number {
  let extra = (options.tokensPerMessage ?? OPENAI_TOKENS_PER_MESSAGE) - OPENAI_TOKENS_PER_MESSAGE;
  let content: string | null | OpenAIChatContentPart[];
  if (typeof message.content === "string" || message.content === null) content = message.content;
  else {
    content = [];
    for (const part of message.content) {
      const text = textOf(part);
      if (text !== undefined) content.push({ type: "text", text });
      else if (options.partTokens !== undefined) extra += options.partTokens(part);
      // Left to OpenAI's formula: image_url parts by detail, anything else by its JSON.
      else content.push(part as OpenAIChatContentPart);
    }
  }
  // Only the fields the formula reads for any role: the message's own tool calls, in whatever shape, are not counted.
  const shaped = { role: message.role, content, ...(typeof message.name === "string" ? { name: message.name } : {}) } as OpenAIChatMessage;
  return countOpenAIChatMessageTokens(shaped, tokenizer) + extra;
}

/** Tokens of the whole request: reply priming, every message, and the tools when given. */
export function countChatRequestTokens(request: ChatRequestLike, tokenizer: Tokenizer, options: ChatTokenCountOptions = {}): number {
  let total = options.replyPriming ?? REPLY_PRIMING;
  for (const message of request.messages) total += countChatMessageTokens(message, tokenizer, options);
  if (options.tools !== undefined && options.tools.length > 0) {
    const tools = options.tools.map(
      (tool): OpenAIChatTool => ({ type: "function", function: { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: tool.parameters } }),
    );
    total += countOpenAIChatToolTokens(tools, tokenizer);
  }
  return total;
}
