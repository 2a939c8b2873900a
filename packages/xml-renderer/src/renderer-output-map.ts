// Registers the "xml" renderer's request type, so build(items, { renderer: "xml" }) and
// hooks.render.for("xml") are typed by it, and adds the per-build `xml` options to BuildOptions.
import type { RendererName } from "@ctxpipe/core";
import type { XmlBuildOptions } from "./xml-render-options.js";
import type { XmlRequest } from "./xml-request.js";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    xml: XmlRequest;
  }
  interface BuildOptions<R extends RendererName = RendererName> {
    /** The memory-chunk selection options for the "xml" renderer; overrides the XmlRendererPlugin's options. `systemPrompt` is an alias of `system`. */
    xml?: XmlBuildOptions;
  }
}
