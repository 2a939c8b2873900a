// prepareStep and the language model middleware.
export { AiSdkCallError } from "./ai-sdk-call-error.js";
export type { AiSdkBuildInfo, AiSdkContextOptions } from "./ai-sdk-context-options.js";
export { type AiSdkContext, type AiSdkPrepareStepArgs, type AiSdkPrepareStepResult, createAiSdkContext } from "./ai-sdk-context.js";
export type { AiSdkRetrieveTools } from "./retrieve-context-tool.js";
export { ctxpipeMiddleware } from "./ctxpipe-middleware.js";
export { ctxpipePrepareStep } from "./ctxpipe-prepare-step.js";
