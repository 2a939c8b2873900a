// @ctxpipe/ai-sdk: ctxpipe for the Vercel AI SDK.
export {};
