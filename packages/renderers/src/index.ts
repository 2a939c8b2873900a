// @ctxpipe/renderers: the Anthropic Messages and Gemini generateContent renderers. Each plugin renders
// under its own name ("anthropic", "gemini") and checks its output against that provider's rules.
export * from "./anthropic-messages/index.js";
export * from "./gemini/index.js";
