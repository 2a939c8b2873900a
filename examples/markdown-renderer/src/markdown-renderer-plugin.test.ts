// Tested the way a third party tests a renderer: core's fixtures and deterministic word tokenizer from
// @ctxpipe/core/testing, the real pipeline, no mocks.
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { MarkdownRendererPlugin } from "./markdown-renderer-plugin.js";

describe("MarkdownRendererPlugin", () => {
  test.for([
    { name: "one item of every type", file: "every-item-type.md", items: everyItemTypeFixture },
    { name: "a parallel tool loop", file: "tool-loop.md", items: toolLoopFixture },
  ])("renders $name (golden file)", async ({ file, items }) => {
    const result = await buildWith([new MarkdownRendererPlugin({ title: "Session" })], items(), { renderer: "markdown", system: "You are a careful engineer." });
    await expect(result.request.markdown).toMatchFileSnapshot(`__fixtures__/${file}`);
    expect(result.report.violations).toEqual([]);
  });

  test("counts the whole document with the build's tokenizer", async () => {
    const result = await buildWith([new MarkdownRendererPlugin()], toolLoopFixture(), { renderer: "markdown" });
    expect(result.tokenCount).toBe(wordTokenizer.count(result.request.markdown));
    expect(result.tokenCountExact).toBe(true);
  });

  test("leaves thinking out unless asked, and the report says so", async () => {
    const hidden = await buildWith([new MarkdownRendererPlugin()], everyItemTypeFixture(), { renderer: "markdown" });
    expect(hidden.report.entries.find((entry) => entry.id === "thinking")).toMatchObject({
      decision: "dropped",
      stage: "render",
      plugin: "MarkdownRendererPlugin",
      reason: "thinking is left out of the transcript (includeThinking is false)",
    });
    expect(hidden.request.markdown).not.toContain("The screenshot shows a stack trace.");
    const shown = await buildWith([new MarkdownRendererPlugin({ includeThinking: true })], everyItemTypeFixture(), { renderer: "markdown" });
    expect(shown.request.markdown).toContain("### Thinking\n\nThe screenshot shows a stack trace.");
  });

  test("names attachments given as data with a placeholder, and reports the item cleared", async () => {
    const items = [
      { id: "u1", type: "user" as const, text: "Two files.", attachments: [{ type: "image" as const, url: "data:image/png;base64,iVBORw0KGgo=" }, { type: "file" as const, fileId: "file-7", filename: "notes.pdf" }] },
    ];
    const result = await buildWith([new MarkdownRendererPlugin()], items, { renderer: "markdown" });
    expect(result.request.markdown).toBe("### User\n\nTwo files.\n\n*(image attachment)*\n\n*(file attachment: notes.pdf, file id `file-7`)*\n");
    expect(result.report.entries[0]).toMatchObject({ decision: "cleared", stage: "render", reason: "attachment data is not written into the transcript; a placeholder names each attachment" });
  });

  test("shows an assistant's reasoning only with includeThinking, and otherwise reports it left out", async () => {
    const items = [
      { id: "u1", type: "user" as const, text: "Why?" },
      { id: "a1", type: "assistant" as const, text: "Because.", reasoning: [{ text: "The cache was stale.", signature: "sig" }] },
    ];
    const hidden = await buildWith([new MarkdownRendererPlugin()], items, { renderer: "markdown" });
    expect(hidden.report.entries[1]).toMatchObject({ decision: "repaired", reason: "its reasoning is left out of the transcript (includeThinking is false)" });
    const shown = await buildWith([new MarkdownRendererPlugin({ includeThinking: true })], items, { renderer: "markdown" });
    expect(shown.request.markdown).toContain("### Assistant\n\n**Reasoning**\n\nThe cache was stale.\n\nBecause.");
    expect(shown.report.entries[1]).toMatchObject({ decision: "kept" });
  });

  test("says which section carries each item", async () => {
    const result = await buildWith([new MarkdownRendererPlugin()], toolLoopFixture(), { renderer: "markdown" });
    expect(result.report.entries.map((entry) => [entry.id, entry.messageIndex])).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["t1", 2],
      ["t2", 3],
      ["a2", 4],
    ]);
  });

  test("refuses unknown options", () => {
    expect(() => new MarkdownRendererPlugin({ heading: 2 } as never)).toThrow(/Invalid options for MarkdownRendererPlugin:[\s\S]*Unrecognized key: "heading"/);
  });
});
