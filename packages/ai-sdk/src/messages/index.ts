// The importers and the "ai-sdk" renderer.
import "./renderer-output-map.js";

export type { AiSdkRequest } from "./ai-sdk-request.js";
export { AI_SDK_EXTRA_KEY, type AiSdkExtra } from "./ai-sdk-extra.js";
export { AiSdkRendererPlugin, type AiSdkRendererPluginOptions } from "./ai-sdk-renderer-plugin.js";
export { aiSdkRules } from "./ai-sdk-rules.js";
export { countAiSdkContentTokens, countAiSdkPartTokens, countAiSdkRequestTokens, countAiSdkToolTokens } from "./count-ai-sdk-tokens.js";
export { importModelMessages, type ImportModelMessagesOptions } from "./import-model-messages.js";
export { type ImportUIMessagesOptions, importUIMessages, TOOL_CALL_DENIED_TEXT } from "./import-ui-messages.js";
export {
  type AiSdkLaterSystemMessages,
  type AiSdkRenderCache,
  type AiSdkRenderedPart,
  type RenderedModelMessages,
  type RenderModelMessagesOptions,
  renderModelMessages,
} from "./render-model-messages.js";
