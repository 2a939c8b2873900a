// The checks the renderer runs on every transcript it builds (validateRequest.for("markdown")).
import type { Rule } from "@ctxpipe/core";
import type { MarkdownTranscript } from "./markdown-transcript.js";

export const markdownRules: ReadonlyArray<Rule<MarkdownTranscript>> = Object.freeze([
  {
    id: "MD-001",
    level: "error",
    requires: "The transcript has at least one section.",
    check(transcript, report) {
      if (transcript.markdown.trim().length === 0) report({ message: "the transcript is empty", path: "markdown" });
    },
  },
]);
