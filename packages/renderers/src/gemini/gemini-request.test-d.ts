// Type tests: the rendered request is what the @google/genai SDK takes, and build() is typed by the
// "gemini" renderer name once this package is imported.
import { type BuildResult, createPipeline } from "@ctxpipe/core";
import type { GenerateContentParameters } from "@google/genai";
import { describe, expectTypeOf, test } from "vitest";
import { GeminiRendererPlugin } from "./gemini-renderer-plugin.js";
import type { GeminiRequest } from "./gemini-request.js";

describe("GeminiRequest", () => {
  test("with its model set, it is the SDK's GenerateContentParameters", () => {
    expectTypeOf<GeminiRequest & { model: string }>().toExtend<GenerateContentParameters>();
    // The SDK requires the model, which a build without options.model leaves out.
    expectTypeOf<GeminiRequest>().not.toExtend<GenerateContentParameters>();
    const request: GeminiRequest = {
      contents: [
        { role: "user", parts: [{ text: "Hi." }, { inlineData: { mimeType: "image/png", data: "AAAA" } }, { fileData: { fileUri: "gs://b/a.pdf" } }] },
        { role: "model", parts: [{ functionCall: { id: "c1", name: "f", args: {} }, thoughtSignature: "s" }] },
        { role: "user", parts: [{ functionResponse: { id: "c1", name: "f", response: { output: "ok" } } }] },
      ],
      config: { systemInstruction: { parts: [{ text: "Be brief." }] }, tools: [{ functionDeclarations: [{ name: "f", parametersJsonSchema: { type: "object" } }] }] },
    };
    const parameters: GenerateContentParameters = { ...request, model: "gemini-2.5-flash" };
    expectTypeOf(parameters).toEqualTypeOf<GenerateContentParameters>();
  });

  test("a request naming a cached content is still GenerateContentParameters", () => {
    const cached: GeminiRequest & { model: string } = { model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "Hi." }] }], config: { cachedContent: "cachedContents/abc123" } };
    expectTypeOf(cached).toExtend<GenerateContentParameters>();
    expectTypeOf<NonNullable<GeminiRequest["config"]>["cachedContent"]>().toEqualTypeOf<string | undefined>();
  });

  test('build(items, { renderer: "gemini" }) returns a BuildResult<GeminiRequest>', async () => {
    const pipeline = createPipeline({ plugins: [new GeminiRendererPlugin()] });
    const result = await pipeline.build([], { renderer: "gemini" });
    expectTypeOf(result).toEqualTypeOf<BuildResult<GeminiRequest>>();
    expectTypeOf(pipeline.hooks.render.for("gemini").tap).parameter(1).returns.toExtend<{ request: GeminiRequest } | undefined>();
  });
});
