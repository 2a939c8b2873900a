// The Anthropic Messages request body, as far as ctxpipe produces it. Kept structurally compatible
// with @anthropic-ai/sdk's MessageCreateParamsNonStreaming without depending on the SDK at run time.

/**
 * A prompt cache breakpoint: the provider caches the request up to and including the block that
 * carries it. ttl defaults to "5m"; a "1h" breakpoint may not come after a "5m" one (ANT-027).
 */
export interface AnthropicCacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

export interface AnthropicTextBlock {
  type: "text";
  text: string;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export interface AnthropicImageBlock {
  type: "image";
  source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } | { type: "url"; url: string };
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicDocumentBlock {
  type: "document";
  source:
    | { type: "base64"; media_type: "application/pdf"; data: string }
    | { type: "text"; media_type: "text/plain"; data: string }
    | { type: "url"; url: string };
  title?: string;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | AnthropicTextBlock[];
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

export type AnthropicReplayedThinkingBlock = AnthropicThinkingBlock | AnthropicRedactedThinkingBlock;

export type AnthropicUserContentBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock | AnthropicToolResultBlock;

export type AnthropicAssistantContentBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicReplayedThinkingBlock;

export type AnthropicContentBlock = AnthropicUserContentBlock | AnthropicAssistantContentBlock;

/** ctxpipe always sends content as blocks, never as a bare string. */
export type AnthropicMessage = { role: "user"; content: AnthropicUserContentBlock[] } | { role: "assistant"; content: AnthropicAssistantContentBlock[] };

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: "object"; [key: string]: unknown };
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicMessagesRequest {
  model?: string;
  max_tokens: number;
  /**
   * Left out when there is no system prompt: Anthropic treats an empty one as a mistake (ANT-003).
   * One text block instead of a string when it carries a cache breakpoint.
   */
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
}
