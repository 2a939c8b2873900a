// The plugins a memory-chunk application passes to createPipeline: the XML renderer, and core's
// insert-system step set to keep stored system messages where they are. The chunk transcript sends
// SYSTEM chunks as <system_context> (includeSystem defaults to true), but core's default
// InsertSystemPlugin makes them the plain system prompt (or drops them when a prompt is composed); an
// InsertSystemPlugin passed in replaces the default one.
import { InsertSystemPlugin } from "@ctxpipe/core";
import { XmlRendererPlugin, type XmlRendererPluginOptions } from "./xml-renderer-plugin.js";

/** `createPipeline({ plugins: xmlRendererPlugins() })`: the XML renderer, with SYSTEM chunks kept. */
export function xmlRendererPlugins(options: XmlRendererPluginOptions = {}): [XmlRendererPlugin, InsertSystemPlugin] {
  return [new XmlRendererPlugin(options), new InsertSystemPlugin({ storedSystemMessages: "keep" })];
}
