// The checks the renderer runs on every transcript it builds (validateRequest.for("markdown")).
import { commonRequestRules, type Rule } from "@ctxpipe/core";
import type { MarkdownTranscript } from "./markdown-transcript.js";

const ownRules: ReadonlyArray<Rule<MarkdownTranscript>> = [
  {
    id: "MD-001",
    level: "error",
    requires: "The transcript has at least one section.",
    check(transcript, report) {
      if (transcript.markdown.trim().length === 0) report({ message: "the transcript is empty", path: "markdown" });
    },
  },
];

/** Core's rules for any request body (COM-…: well-formed strings, a body that serialises), then the transcript's own. */
export const markdownRules: ReadonlyArray<Rule<MarkdownTranscript>> = Object.freeze([...commonRequestRules, ...ownRules]);
