// The OpenAI Responses API renderer: the request types, the renderer plugin, the pure render and count
// functions it is made of, and the Responses rule table.
import "./renderer-output-map.js";

export {
  countOpenAIResponsesInputItemTokens,
  countOpenAIResponsesInstructionsTokens,
  countOpenAIResponsesTokens,
  countOpenAIResponsesToolTokens,
  OPENAI_RESPONSES_REPLY_PRIMING,
  OPENAI_RESPONSES_TOKENS_PER_ITEM,
} from "./count-openai-responses-tokens.js";
export { OpenAIResponsesRendererPlugin, type OpenAIResponsesRendererPluginOptions } from "./openai-responses-renderer-plugin.js";
export type {
  OpenAIResponsesAnnotation,
  OpenAIResponsesAssistantMessage,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesInputContent,
  OpenAIResponsesInputItem,
  OpenAIResponsesInputMessage,
  OpenAIResponsesLogprob,
  OpenAIResponsesOutputContent,
  OpenAIResponsesOutputMessage,
  OpenAIResponsesOutputMessageContent,
  OpenAIResponsesReasoningItem,
  OpenAIResponsesRequest,
  OpenAIResponsesVerbatimItem,
} from "./openai-responses-request.js";
export { MIN_OUTPUT_TOKENS as OPENAI_RESPONSES_MIN_OUTPUT_TOKENS } from "./openai-responses-request-rules.js";
export { openAIResponsesRules } from "./openai-responses-rules.js";
export { type RenderedAssistantTurn, renderOpenAIResponsesAssistantTurn } from "./render-openai-responses-assistant-turn.js";
export {
  type OpenAIResponsesItemOptions,
  type OpenAIResponsesSystemRole,
  openAIResponsesAttachmentPart,
  type OpenAIResponsesSentItem,
  type RenderedOpenAIResponsesItem,
  renderOpenAIResponsesItem,
} from "./render-openai-responses-item.js";
