// MarkdownRendererPlugin: renders the items as one Markdown transcript under the renderer name
// "markdown". Built on @ctxpipe/core's public API only, the way any third-party renderer is.
import { checkRules, type PipelinePlugin, type PluginHost, parsePluginOptions, STAGE } from "@ctxpipe/core";
import { z } from "zod";
import { markdownRules } from "./markdown-rules.js";
import type { MarkdownTranscript } from "./markdown-transcript.js";
import { renderMarkdownSection } from "./render-markdown-section.js";

const PLUGIN_NAME = "MarkdownRendererPlugin";
const RENDERER = "markdown";

const markdownRendererPluginOptionsSchema = z.strictObject({
  /** A title for the document, as its first line. */
  title: z.string().min(1).optional(),
  /** Thinking items are the model's private notes; a transcript for people leaves them out by default. */
  includeThinking: z.boolean().default(false),
  stage: z.number().default(STAGE.DEFAULT),
});

export type MarkdownRendererPluginOptions = z.input<typeof markdownRendererPluginOptionsSchema>;

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
        messageIndexById.set(item.id, sections.length);
        sections.push(renderMarkdownSection(item));
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
