// @ctxpipe/xml-renderer: the XML chunk transcript renderer as a ctxpipe renderer named "xml", and the
// per-chunk renderer contract through which applications add tags of their own.
import "./renderer-output-map.js";

export type { ChunkRenderer } from "./chunk-renderer.js";
export { agentChunkRenderer } from "./chunk-renderers/agent-chunk-renderer.js";
export { DEFAULT_CHUNK_RENDERERS } from "./chunk-renderers/default-chunk-renderers.js";
export { delegationChunkRenderer } from "./chunk-renderers/delegation-chunk-renderer.js";
export { environmentChunkRenderer } from "./chunk-renderers/environment-chunk-renderer.js";
export { outputChunkRenderer } from "./chunk-renderers/output-chunk-renderer.js";
export { ownChunkRenderer } from "./chunk-renderers/own-chunk-renderer.js";
export { SYSTEM_CONTEXT_DEFAULT_PRIORITY, systemChunkRenderer } from "./chunk-renderers/system-chunk-renderer.js";
export { systemPromptRenderer } from "./chunk-renderers/system-prompt-renderer.js";
export { workingFlowChunkRenderer } from "./chunk-renderers/working-flow-chunk-renderer.js";
export { CHUNK_TYPES, ChunkType, chunkTypesOf } from "./chunk-type.js";
export { CHUNK_SEPARATOR } from "./chunk-separator.js";
export { countXmlMessageTokens, countXmlTokens } from "./count-xml-tokens.js";
export { memoryChunkOf, memoryChunkSubTypeOf, type StoredMemoryChunk } from "./memory-chunk-of.js";
export { type RenderedChunk, type RenderedXmlMessages, type RenderXmlMessagesOptions, renderChunk, renderXmlMessages } from "./render-xml-messages.js";
export { type XmlAttributes, xmlAttributes, xmlElement, xmlEmptyElement } from "./xml-element.js";
export { escapeXmlAttribute, escapeXmlText, unescapeXml } from "./xml-escaping.js";
export { type XmlBuildOptions, type XmlRenderOptions, xmlBuildOptionsSchema, xmlRenderOptionsSchema } from "./xml-render-options.js";
export { XmlRendererPlugin, type XmlRendererPluginOptions } from "./xml-renderer-plugin.js";
export { xmlRendererPlugins } from "./xml-renderer-plugins.js";
export type { XmlMessage, XmlRequest, XmlRole } from "./xml-request.js";
export { findTagProblem, xmlRequestRules } from "./xml-request-rules.js";
