// What the "markdown" renderer produces, and its entry in core's renderer output map: importing
// this package is what makes build(items, { renderer: "markdown" }) return a MarkdownTranscript.
export interface MarkdownTranscript {
  /** The whole conversation as one Markdown document. */
  markdown: string;
}

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    markdown: MarkdownTranscript;
  }
}
