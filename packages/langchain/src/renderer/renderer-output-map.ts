// Registers the "langchain" renderer's request type, so build(items, { renderer: "langchain" }) and
// hooks.render.for("langchain") are typed by it.
import type { LangChainRequest } from "./langchain-request.js";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    langchain: LangChainRequest;
  }
}
