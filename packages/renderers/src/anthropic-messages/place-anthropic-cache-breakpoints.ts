// Places Anthropic prompt cache breakpoints (cache_control) where the request stops changing
// between the builds of a conversation, at most four (ANT-013):
// - the last tool definition and the system prompt: they change only when the tools or the prompt do
//   (or a compaction's summary, which is sent in the system prompt);
// - the last block of the newest message, so the next build, which starts with this whole request,
//   reads it back;
// - the last block of the message before it. Anthropic looks for an earlier cache entry at most 20
//   blocks back from a breakpoint: an agent turn with many parallel tool calls adds more than that
//   (each call and each result is a block), and this second breakpoint splits the new blocks into
//   the assistant's and the user's side, each read back on its own.
// Placement depends on this request alone, never on the builds before it, so the same input still
// gives the same request. A breakpoint whose prefix is shorter than the model's minimum cacheable
// length would cache nothing: it is not placed, and report.cache.breakpoints says why.
import type { CacheBreakpoint } from "@ctxpipe/core";
import type { AnthropicCacheControl, AnthropicMessage, AnthropicMessagesRequest, AnthropicTool } from "./anthropic-messages-request.js";
import { surelyTooShortToCache } from "./anthropic-cache-rules.js";
import { anthropicMessagesBefore } from "./count-anthropic-messages-tokens.js";

export type AnthropicCacheTtl = "5m" | "1h";

export interface AnthropicCacheTokens {
  readonly tools: number;
  readonly system: number;
  /** Tokens of each message's content, without the per-message overhead. */
  readonly messageContent: ReadonlyArray<number>;
}

export interface PlacedAnthropicCacheBreakpoints {
  /** The request with its breakpoints; the messages, tools and blocks marked are copies. */
  readonly request: AnthropicMessagesRequest;
  readonly breakpoints: ReadonlyArray<CacheBreakpoint>;
}

function withMarkedLastBlock(message: AnthropicMessage, cacheControl: AnthropicCacheControl): AnthropicMessage {
  const content = message.content.slice();
  const last = content.length - 1;
  content[last] = { ...content[last]!, cache_control: cacheControl } as (typeof content)[number];
  return { ...message, content } as AnthropicMessage;
}

function withMarkedLastTool(tools: ReadonlyArray<AnthropicTool>, cacheControl: AnthropicCacheControl): AnthropicTool[] {
  const marked = tools.slice();
  marked[marked.length - 1] = { ...marked[marked.length - 1]!, cache_control: cacheControl };
  return marked;
}

/** Adds cache breakpoints to a copy of the request; `request` itself is left as it is. */
export function placeAnthropicCacheBreakpoints(request: AnthropicMessagesRequest, tokens: AnthropicCacheTokens, minimumTokens: number, ttl: AnthropicCacheTtl | undefined): PlacedAnthropicCacheBreakpoints {
  const cacheControl: AnthropicCacheControl = ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl };
  const messagesBefore = anthropicMessagesBefore(tokens.messageContent);
  const breakpoints: CacheBreakpoint[] = [];
  const marked: AnthropicMessagesRequest = { ...request };
  /** Records a candidate and says whether its prefix is long enough to be cached. */
  // A tokenizer that counts more tokens than the text has bytes (an inflated estimate, odd text) could
  // place a breakpoint the rules know to be too short (ANT-028): those are left out too.
  const shortInBytes = surelyTooShortToCache(request, minimumTokens);
  const consider = (candidate: Omit<CacheBreakpoint, "placed" | "reason">, blockPath: string): boolean => {
    const bytes = shortInBytes.get(blockPath);
    const placed = candidate.prefixTokens >= minimumTokens && bytes === undefined;
    if (placed) breakpoints.push({ ...candidate, placed });
    else {
      const size = bytes === undefined || candidate.prefixTokens < minimumTokens ? `${candidate.prefixTokens} tokens` : `${bytes} bytes`;
      breakpoints.push({ ...candidate, placed, reason: `the request up to here is ${size}, below the ${minimumTokens} tokens the model caches at least` });
    }
    return placed;
  };

  const tools = request.tools ?? [];
  if (tools.length > 0 && consider({ part: "tools", prefixTokens: tokens.tools }, `tools[${tools.length - 1}]`)) marked.tools = withMarkedLastTool(tools, cacheControl);
  const systemText = typeof request.system === "string" ? request.system : undefined;
  // A blank system prompt is never sent (ANT-003), and a breakpoint may not sit on an empty block (ANT-021).
  if (systemText !== undefined && systemText.trim() !== "" && consider({ part: "system", prefixTokens: tokens.tools + tokens.system }, "system")) {
    marked.system = [{ type: "text", text: systemText, cache_control: cacheControl }];
  }
  const count = request.messages.length;
  const messages = request.messages.slice();
  for (const index of [count - 2, count - 1]) {
    // Every message the renderer makes has blocks, none of them blank text (ANT-011, ANT-012).
    const last = index < 0 ? -1 : messages[index]!.content.length - 1;
    if (last < 0) continue;
    const candidate = { part: "messages" as const, messageIndex: index, prefixTokens: tokens.tools + tokens.system + messagesBefore[index + 1]! };
    if (consider(candidate, `messages[${index}].content[${last}]`)) messages[index] = withMarkedLastBlock(messages[index]!, cacheControl);
  }
  marked.messages = messages;
  return { request: marked, breakpoints };
}
