// Google Gemini generateContent: the request type, the renderer plugin (renderer name "gemini"), its
// pure rendering and token count, and the Gemini rule table.
export { countGeminiPartsTokens, countGeminiPartTokens, countGeminiTokens, GEMINI_TOKENS_PER_CONTENT, GEMINI_TOKENS_PER_MEDIA_PART } from "./count-gemini-tokens.js";
export { geminiAttachmentPart } from "./gemini-attachment-part.js";
export { GeminiRendererPlugin, type GeminiRendererPluginOptions } from "./gemini-renderer-plugin.js";
export type {
  GeminiContent,
  GeminiFileDataPart,
  GeminiFunctionCall,
  GeminiFunctionCallPart,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiFunctionResponsePart,
  GeminiGenerateContentConfig,
  GeminiInlineDataPart,
  GeminiPart,
  GeminiRequest,
  GeminiSystemInstruction,
  GeminiTextPart,
  GeminiTool,
} from "./gemini-request.js";
export { cachedContentAlone } from "./gemini-cache-rules.js";
export { geminiRules } from "./gemini-rules.js";
export { isGemini3Model, SKIP_THOUGHT_SIGNATURE_VALIDATOR, signsUnsignedCalls, type ThoughtSignatureMode } from "./gemini-thought-signatures.js";
export { type GeminiContents, type GeminiContentsOptions, type GeminiItemParts, renderGeminiContents } from "./render-gemini-contents.js";
export { type GeminiItemContext, geminiFunctionArgs, type RenderedGeminiItem, renderGeminiItem } from "./render-gemini-item.js";
