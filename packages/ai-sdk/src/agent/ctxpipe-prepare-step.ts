// The shortest way in: a prepareStep that runs ctxpipe, for a caller who does not read the report.
import type { AiSdkContextOptions } from "./ai-sdk-context-options.js";
import { type AiSdkContext, createAiSdkContext } from "./ai-sdk-context.js";

/**
 * `prepareStep: ctxpipePrepareStep()` builds every step of generateText/streamText with ctxpipe.
 * The same as `createAiSdkContext(options).prepareStep`; make the context yourself to read its
 * `lastBuild` or share it with the middleware.
 */
export function ctxpipePrepareStep(options?: AiSdkContextOptions): AiSdkContext["prepareStep"] {
  return createAiSdkContext(options).prepareStep;
}
