// ctxpipe-renderer-markdown: the "markdown" renderer, a readable transcript of the conversation.
import "./markdown-transcript.js";

export { fence } from "./fence.js";
export { markdownRules } from "./markdown-rules.js";
export { MarkdownRendererPlugin, type MarkdownRendererPluginOptions } from "./markdown-renderer-plugin.js";
export type { MarkdownTranscript } from "./markdown-transcript.js";
export { type MarkdownSectionOptions, renderMarkdownSection } from "./render-markdown-section.js";
