// The Anthropic Messages renderer: the request types, the renderer plugin, the pure render and count
// functions it is made of, and the Anthropic rule table.
import "./renderer-output-map.js";

export { anthropicAttachmentBlock } from "./anthropic-attachment-block.js";
export type {
  AnthropicAssistantContentBlock,
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
export { AnthropicMessagesRendererPlugin, type AnthropicMessagesRendererPluginOptions } from "./anthropic-messages-renderer-plugin.js";
export { anthropicMessagesRules } from "./anthropic-messages-rules.js";
export { anthropicToolInput } from "./anthropic-tool-input.js";
export {
  ANTHROPIC_TOKENS_PER_MESSAGE,
  countAnthropicBlockTokens,
  countAnthropicMessagesTokens,
  countAnthropicMessageTokens,
  type KnownAnthropicTokenCounts,
} from "./count-anthropic-messages-tokens.js";
export { type AnthropicItemContent, anthropicSystemText, renderAnthropicItem } from "./render-anthropic-item.js";
export {
  type AnthropicLaterSystemMessages,
  type AnthropicMessagesOptions,
  type AnthropicRenderedPart,
  type RenderedAnthropicMessages,
  renderAnthropicMessages,
} from "./render-anthropic-messages.js";
