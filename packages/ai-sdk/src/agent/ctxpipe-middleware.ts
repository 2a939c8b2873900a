// The shortest way in through the model: a middleware that runs ctxpipe on every call.
import type { LanguageModelMiddleware } from "ai";
import type { AiSdkContextOptions } from "./ai-sdk-context-options.js";
import { createAiSdkContext } from "./ai-sdk-context.js";

/**
 * `wrapLanguageModel({ model, middleware: ctxpipeMiddleware() })` builds every call's prompt with
 * ctxpipe. The same as `createAiSdkContext(options).middleware`; make the context yourself to read its
 * `lastBuild`.
 */
export function ctxpipeMiddleware(options?: AiSdkContextOptions): LanguageModelMiddleware {
  return createAiSdkContext(options).middleware;
}
