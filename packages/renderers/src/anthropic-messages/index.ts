// The Anthropic Messages renderer: the request types, the renderer plugin, the pure render and count
// functions it is made of, and the Anthropic rule table.
import "./renderer-output-map.js";

export { anthropicAttachmentBlock } from "./anthropic-attachment-block.js";
export type {
  AnthropicAssistantContentBlock,
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicImageMediaType,
  AnthropicMessage,
  AnthropicMessagesRequest,
  AnthropicRedactedThinkingBlock,
  AnthropicReplayedThinkingBlock,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  AnthropicUserContentBlock,
} from "./anthropic-messages-request.js";
export { cacheBreakpointsLongEnough, cacheTtlsLongestFirst } from "./anthropic-cache-rules.js";
export { anthropicMinimumCacheableTokens } from "./anthropic-minimum-cacheable-tokens.js";
export { AnthropicMessagesRendererPlugin, type AnthropicMessagesRendererPluginOptions } from "./anthropic-messages-renderer-plugin.js";
export { anthropicMessagesRules } from "./anthropic-messages-rules.js";
export { anthropicToolInput } from "./anthropic-tool-input.js";
export {
  ANTHROPIC_TOKENS_PER_MESSAGE,
  anthropicMessagesBefore,
  countAnthropicBlockTokens,
  countAnthropicMessagesTokens,
  countAnthropicMessageTokens,
  countAnthropicToolTokens,
  type KnownAnthropicTokenCounts,
} from "./count-anthropic-messages-tokens.js";
export { type AnthropicCacheTokens, type AnthropicCacheTtl, type PlacedAnthropicCacheBreakpoints, placeAnthropicCacheBreakpoints } from "./place-anthropic-cache-breakpoints.js";
export { type AnthropicItemContent, anthropicSystemText, renderAnthropicItem } from "./render-anthropic-item.js";
export {
  type AnthropicLaterSystemMessages,
  type AnthropicMessagesOptions,
  type AnthropicRenderedPart,
  type RenderedAnthropicMessages,
  renderAnthropicMessages,
} from "./render-anthropic-messages.js";
