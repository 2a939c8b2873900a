// "Nothing lost silently" for every piece of item content: core's OpenAI renderer passes, with the gaps
// it has listed; a renderer that ignores content is caught piece by piece; the list of known
// omissions cannot outlive its gaps.
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import type { PipelinePlugin } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import { checkRendererCarriesContent } from "./check-renderer-carries-content.js";
import { CONTENT_PIECE_NAMES, CONTENT_PIECES, markerOf } from "./content-pieces.js";

/** Chat Completions has no field for earlier reasoning: the renderer leaves it out, and the report says "kept". */
const OPENAI_KNOWN_OMISSIONS = {
  // Gap: unsigned reasoning on an assistant item is not sent and not reported.
  "assistant.reasoning": "Chat Completions takes no reasoning back; the OpenAI renderer leaves it out without a report entry",
  // Gap: the same for signed reasoning (the signature is Anthropic's or Gemini's, useless to OpenAI).
  "assistant.signed-reasoning": "Chat Completions takes no reasoning back; the OpenAI renderer leaves it out without a report entry",
} as const;

/** Takes over "openai" ahead of the default renderer: one user message of every item's text, nothing else. */
const textOnly: PipelinePlugin = {
  name: "TextOnlyRenderer",
  apply(pipeline) {
    pipeline.hooks.render.for("openai").tap({ name: "TextOnlyRenderer", stage: STAGE.EARLY }, (items) => {
      const text = items.map((item: Item) => ("text" in item ? item.text : item.type === "tool-result" ? item.output : "")).join("\n");
      return { request: { messages: [{ role: "user", content: text }] }, tokenCount: 0, messageCount: 1 };
    });
  },
};

describe("checkRendererCarriesContent", () => {
  test("core's OpenAI renderer carries every piece, or reports it, but for the listed gaps", async () => {
    expect(await checkRendererCarriesContent({ renderer: "openai", build: { model: "gpt-4o" }, knownOmissions: OPENAI_KNOWN_OMISSIONS })).toEqual([]);
  });

  test("catches a renderer that keeps only the text", async () => {
    const problems = await checkRendererCarriesContent({ renderer: "openai", plugins: textOnly, build: { validation: "report" } });
    const missing = new Set(problems.map((problem) => problem.split(" ")[0]));
    expect([...missing].sort()).toEqual(
      [
        "user.image-url",
        "user.image-data",
        "user.file-data",
        "user.file-id",
        "user.file-name",
        "assistant.signed-reasoning",
        "assistant.reasoning",
        "assistant.tool-call-name",
        "assistant.tool-call-arguments",
        "tool-result.is-error",
        "subagent-spawn.agent-type",
        "subagent-result.success",
        "task-abandoned.reason",
        "task-terminated.terminated-by",
      ].sort(),
    );
    expect(problems).toContain(
      `user.image-url ("${markerOf("user.image-url")}") of item "user-image-url", alone: is nowhere in the request, and the report does not say why (kept: sent to the model)`,
    );
    expect(problems).toContain('tool-result.is-error of item "tool-result-is-error", alone: makes no difference to the request, and the report does not say why (kept: sent to the model)');
  });

  test("a known omission the renderer no longer has, or one without a reason, is a problem", async () => {
    const problems = await checkRendererCarriesContent({ renderer: "openai", knownOmissions: { ...OPENAI_KNOWN_OMISSIONS, "user.text": "not sent", "tool-result.output": " " } });
    expect(problems).toEqual([
      'knownOmissions["tool-result.output"] gives no reason',
      'user.text is listed in knownOmissions ("not sent") but the request carries it, or the report explains it: remove it from the list',
      expect.stringMatching(/^tool-result\.output is listed in knownOmissions/),
    ]);
  });

  test("every piece has a marker of its own, and its item holds it", () => {
    expect(new Set(CONTENT_PIECE_NAMES.map(markerOf)).size).toBe(CONTENT_PIECE_NAMES.length);
    for (const piece of CONTENT_PIECES) {
      const holder = piece.items(piece.kind === "text" ? markerOf(piece.name) : "true").find((item) => item.id === piece.itemId);
      expect(holder, piece.name).toBeDefined();
      if (piece.kind === "text") expect(JSON.stringify(holder), piece.name).toContain(markerOf(piece.name));
    }
  });
});
