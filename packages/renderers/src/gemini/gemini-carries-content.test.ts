// Nothing lost silently, piece by piece: every piece of item content reaches the Gemini request, or the
// report says why, but for the gaps listed below.
import { checkRendererCarriesContent } from "@ctxpipe/core/testing";
import { expect, test } from "vitest";
import { GeminiRendererPlugin } from "./gemini-renderer-plugin.js";

const NOT_REPLAYED = "Gemini keeps its reasoning state in the calls' thought signatures; reasoning text is left out without a report entry";

test("the Gemini renderer carries every piece of content, or reports it, but for the listed gaps", async () => {
  const problems = await checkRendererCarriesContent({
    renderer: "gemini",
    plugins: new GeminiRendererPlugin(),
    build: { model: "gemini-3-pro" },
    knownOmissions: {
      // Gap: a file attachment's filename is not sent, and the report says "kept". Gemini reads a
      // blob's displayName only with server-side tools on, and no text part names the file, so the
      // model cannot tell "report.pdf" from "invoice.pdf".
      "user.file-name": "no part carries the file name (Gemini reads displayName only with server-side tools); nothing is reported",
      // Gap: reasoning on an assistant item, signed or not, is not replayed, and the report says "kept".
      "assistant.reasoning": NOT_REPLAYED,
      "assistant.signed-reasoning": NOT_REPLAYED,
    },
  });
  expect(problems).toEqual([]);
});
