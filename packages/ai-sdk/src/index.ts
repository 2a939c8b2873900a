// @ctxpipe/ai-sdk: ctxpipe for the Vercel AI SDK.

// ModelMessage and UIMessage histories in, ModelMessage[] out: the importers and the "ai-sdk" renderer.
export * from "./messages/index.js";

// The pipeline on every model call of an agent: prepareStep and the language model middleware.
export * from "./agent/index.js";
