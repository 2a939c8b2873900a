// @ctxpipe/langchain: ctxpipe for LangChain.js. This entry needs @langchain/core only; the createAgent
// middleware, which needs `langchain`, is in "@ctxpipe/langchain/agent".
export { type ImportLangChainMessagesOptions, importLangChainMessages } from "./messages/import-langchain-messages.js";
export type { LangChainExtra } from "./messages/langchain-extra.js";
export { countLangChainMessageTokens, countLangChainTokens } from "./renderer/count-langchain-tokens.js";
export type { LangChainRequest } from "./renderer/langchain-request.js";
export { LangChainRendererPlugin, type LangChainRendererPluginOptions } from "./renderer/langchain-renderer-plugin.js";
export { langChainRules } from "./renderer/langchain-rules.js";
export { toOpenAIChatMessage } from "./renderer/to-openai-chat-message.js";
export {
  type CtxpipeTrimOptions,
  type CtxpipeTrimResult,
  ctxpipeTrimMessages,
  ctxpipeTrimMessagesWithReport,
  type LangChainTokenCounter,
} from "./trim/ctxpipe-trim-messages.js";
export { createLangChainPipeline, type DefaultPipelineOptions as LangChainPipelineOptions } from "./counting/default-pipeline.js";
import "./renderer/renderer-output-map.js";
