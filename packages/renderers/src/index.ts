// @ctxpipe/renderers: the Anthropic Messages, Gemini generateContent and OpenAI Responses renderers. Each
// plugin renders under its own name ("anthropic", "gemini", "openai-responses") and checks its output
// against that provider's rules.
export * from "./anthropic-messages/index.js";
export * from "./gemini/index.js";
export * from "./openai-responses/index.js";
