// MarkdownRendererPlugin: renders the items as one Markdown transcript under the renderer name
// "markdown". Built on @ctxpipe/core's public API only, the way any third-party renderer is.
import { type Attachment, checkRules, type PipelinePlugin, type PluginHost, parsePluginOptions, STAGE } from "@ctxpipe/core";
import { z } from "zod";
import { markdownRules } from "./markdown-rules.js";
import type { MarkdownTranscript } from "./markdown-transcript.js";
import { renderMarkdownSection, shownReasoning } from "./render-markdown-section.js";

const PLUGIN_NAME = "MarkdownRendererPlugin";
const RENDERER = "markdown";

const markdownRendererPluginOptionsSchema = z.strictObject({
  /** A title for the document, as its first line. */
  title: z.string().min(1).optional(),
  /** Thinking items and an assistant's reasoning are the model's private notes; a transcript for people leaves them out by default. */
  includeThinking: z.boolean().default(false),
  stage: z.number().default(STAGE.DEFAULT),
});

export type MarkdownRendererPluginOptions = z.input<typeof markdownRendererPluginOptionsSchema>;

/** Whether an attachment carries its content (a data: URL or base64), which the transcript does not. */
function hasData(attachment: Attachment): boolean {
  return attachment.type === "image" ? attachment.url.startsWith("data:") : attachment.data !== undefined;
}

/** Between sections: a thematic break, so each turn stands apart. */
const SECTION_BREAK = "\n\n---\n\n";

export class MarkdownRendererPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof markdownRendererPluginOptionsSchema>;

  constructor(options: MarkdownRendererPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, markdownRendererPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    const tap = { name: PLUGIN_NAME, stage: this.#options.stage };
    pipeline.hooks.render.for(RENDERER).tap(tap, (items, context) => {
      const sections: string[] = [];
      // Each section counts as a message in the report, so entries say where their item went.
      const messageIndexById = new Map<string, number>();
      for (const item of items) {
        if (item.type === "thinking" && !this.#options.includeThinking) {
          context.report.drop(item, "thinking is left out of the transcript (includeThinking is false)");
          continue;
        }
        // What the section leaves out of the item is reported, so nothing is lost silently.
        const sectionOptions = { includeReasoning: this.#options.includeThinking };
        if (item.type === "user" && item.attachments?.some(hasData)) {
          context.report.clear(item, "attachment data is not written into the transcript; a placeholder names each attachment");
        } else if (item.type === "assistant" && (item.reasoning ?? []).filter((entry) => entry.text.trim().length > 0).length > shownReasoning(item, sectionOptions).length) {
          const why = this.#options.includeThinking ? "redacted reasoning is opaque data" : "includeThinking is false";
          context.report.repair(item, `its reasoning is left out of the transcript (${why})`);
        }
        messageIndexById.set(item.id, sections.length);
        sections.push(renderMarkdownSection(item, sectionOptions));
      }
      const title = this.#options.title === undefined ? "" : `# ${this.#options.title}\n\n`;
      const request: MarkdownTranscript = { markdown: `${title}${sections.join(SECTION_BREAK)}\n` };
      return { request, tokenCount: context.tokenizer.count(request.markdown), messageCount: sections.length, messageIndexById };
    });
    pipeline.hooks.validateRequest.for(RENDERER).tap(tap, (transcript, context) => {
      for (const violation of checkRules(markdownRules, transcript, { model: context.model })) context.issue(violation);
    });
  }
}
