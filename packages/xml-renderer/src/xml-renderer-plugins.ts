// The plugins a memory-chunk application passes to createPipeline: the XML renderer, and core's filter
// set to keep stored system messages. The chunk transcript sends SYSTEM chunks as <system_context>
// (includeSystem defaults to true), but core's default FilterPlugin drops stored system messages,
// since a chat prompt is usually composed fresh; a FilterPlugin passed in replaces the default one.
import { FilterPlugin } from "@ctxpipe/core";
import { XmlRendererPlugin, type XmlRendererPluginOptions } from "./xml-renderer-plugin.js";

/** `createPipeline({ plugins: xmlRendererPlugins() })`: the XML renderer, with SYSTEM chunks kept. */
export function xmlRendererPlugins(options: XmlRendererPluginOptions = {}): [XmlRendererPlugin, FilterPlugin] {
  return [new XmlRendererPlugin(options), new FilterPlugin({ dropStoredSystemMessages: false })];
}
