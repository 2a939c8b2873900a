// Registers the "ai-sdk" renderer's request type, so build(items, { renderer: "ai-sdk" }) and
// hooks.render.for("ai-sdk") are typed by it.
import type { AiSdkRequest } from "./ai-sdk-request.js";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    "ai-sdk": AiSdkRequest;
  }
}
