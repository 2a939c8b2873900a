// Registers the "anthropic" renderer's request type, so build(items, { renderer: "anthropic" }) and
// hooks.render.for("anthropic") are typed by it.
import type { AnthropicMessagesRequest } from "./anthropic-messages-request.js";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    anthropic: AnthropicMessagesRequest;
  }
}
