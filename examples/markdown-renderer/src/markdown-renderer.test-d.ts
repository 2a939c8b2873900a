// The package's own entry in core's RendererOutputMap types its builds; the map stays open to others.
import { type BuildResult, createPipeline, type OpenAIChatRequest } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";
import { MarkdownRendererPlugin } from "./markdown-renderer-plugin.js";
import type { MarkdownTranscript } from "./markdown-transcript.js";

describe("the markdown renderer's types", () => {
  test('build(items, { renderer: "markdown" }) is typed as MarkdownTranscript', () => {
    const pipeline = createPipeline({ plugins: [new MarkdownRendererPlugin()] });
    expectTypeOf(pipeline.build([], { renderer: "markdown" })).resolves.toEqualTypeOf<BuildResult<MarkdownTranscript>>();
    expectTypeOf(pipeline.build([], { renderer: "openai" })).resolves.toEqualTypeOf<BuildResult<OpenAIChatRequest>>();
  });

  test("a renderer nobody registered does not type-check", () => {
    const pipeline = createPipeline({ plugins: [new MarkdownRendererPlugin()] });
    // @ts-expect-error "xml" is registered by @ctxpipe/xml-renderer, which this package does not import
    void pipeline.build([], { renderer: "xml" });
  });

  test("the markdown hooks carry the transcript", () => {
    const pipeline = createPipeline();
    pipeline.hooks.validateRequest.for("markdown").tap({ name: "Probe" }, (transcript) => {
      expectTypeOf(transcript).toEqualTypeOf<MarkdownTranscript>();
    });
  });
});
