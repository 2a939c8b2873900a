// Registers the "openai-responses" renderer's request type, so build(items, { renderer: "openai-responses" })
// and hooks.render.for("openai-responses") are typed by it.
import type { OpenAIResponsesRequest } from "./openai-responses-request.js";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    "openai-responses": OpenAIResponsesRequest;
  }
}
