// Type tests: importing the package registers the "xml" renderer's output and build options.
import { type BuildResult, createPipeline, type OpenAIChatRequest, type RenderResult } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";
import type { ChunkRenderer } from "./chunk-renderer.js";
import { XmlRendererPlugin } from "./xml-renderer-plugin.js";
import type { XmlRequest, XmlRole } from "./xml-request.js";

describe("the xml renderer's types", () => {
  test('build(items, { renderer: "xml" }) is typed as XmlRequest', () => {
    const pipeline = createPipeline({ plugins: [new XmlRendererPlugin()] });
    expectTypeOf(pipeline.build([], { renderer: "xml" })).resolves.toEqualTypeOf<BuildResult<XmlRequest>>();
    expectTypeOf<XmlRequest>().toEqualTypeOf<{ messages: Array<{ role: "system" | "user" | "assistant"; content: string }> }>();
    // Other renderers keep their own types.
    expectTypeOf(pipeline.build([])).resolves.toEqualTypeOf<BuildResult<OpenAIChatRequest>>();
  });

  test("an unknown renderer name does not type-check", () => {
    const pipeline = createPipeline({ plugins: [new XmlRendererPlugin()] });
    // @ts-expect-error "xlm" is no registered renderer
    void pipeline.build([], { renderer: "xlm" });
  });

  test("the render and validateRequest hooks of \"xml\" carry XmlRequest", () => {
    const pipeline = createPipeline();
    expectTypeOf(pipeline.hooks.render.for("xml").tap).parameter(1).returns.toEqualTypeOf<RenderResult<XmlRequest> | undefined>();
    pipeline.hooks.validateRequest.for("xml").tap({ name: "Probe" }, (request) => {
      expectTypeOf(request).toEqualTypeOf<XmlRequest>();
    });
    // @ts-expect-error an "xml" render tap must return an XmlRequest
    pipeline.hooks.render.for("xml").tap({ name: "Wrong" }, () => ({ request: { markdown: "" }, tokenCount: 0, messageCount: 0 }));
  });

  test("seed 001's options are typed per build", () => {
    const pipeline = createPipeline({ plugins: [new XmlRendererPlugin()] });
    void pipeline.build([], { renderer: "xml", xml: { includeSystem: false, excludeTypes: ["OUTPUT"], includeOnlyChunkIds: ["c1"] } });
    // @ts-expect-error "TOOL" is not a chunk type
    void pipeline.build([], { renderer: "xml", xml: { excludeTypes: ["TOOL"] } });
  });

  test("a chunk renderer is the seed's canRender / getRole / render", () => {
    expectTypeOf<ReturnType<ChunkRenderer["getRole"]>>().toEqualTypeOf<XmlRole>();
    expectTypeOf<ReturnType<ChunkRenderer["render"]>>().toEqualTypeOf<string>();
    // @ts-expect-error a role outside system / user / assistant
    const wrong: ChunkRenderer = { canRender: () => true, getRole: () => "tool", render: () => "" };
    void wrong;
  });
});
