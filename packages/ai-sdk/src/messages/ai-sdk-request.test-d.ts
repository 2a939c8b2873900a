import { type BuildResult, createPipeline, type Item } from "@ctxpipe/core";
import type { generateText, ModelMessage, UIMessage } from "ai";
import { describe, expectTypeOf, test } from "vitest";
import type { AiSdkRequest } from "./ai-sdk-request.js";
import { AiSdkRendererPlugin } from "./ai-sdk-renderer-plugin.js";
import { importModelMessages } from "./import-model-messages.js";
import { importUIMessages } from "./import-ui-messages.js";

type GenerateTextOptions = Parameters<typeof generateText>[0];

describe("AiSdkRequest", () => {
  test("its messages are the ai package's ModelMessage[]", () => {
    expectTypeOf<AiSdkRequest["messages"]>().toEqualTypeOf<ModelMessage[]>();
  });

  test("{ system, messages } is what generateText takes", () => {
    expectTypeOf<AiSdkRequest["system"]>().toExtend<GenerateTextOptions["system"]>();
    expectTypeOf<{ model: "openai/gpt-5" } & AiSdkRequest>().toExtend<GenerateTextOptions>();
  });

  test('build(..., { renderer: "ai-sdk" }) returns BuildResult<AiSdkRequest>', () => {
    const pipeline = createPipeline({ plugins: [new AiSdkRendererPlugin()] });
    expectTypeOf(pipeline.build([], { renderer: "ai-sdk" })).resolves.toEqualTypeOf<BuildResult<AiSdkRequest>>();
  });

  test("the importers take the ai package's message types and give items", () => {
    expectTypeOf(importModelMessages).parameter(0).toEqualTypeOf<ReadonlyArray<ModelMessage>>();
    expectTypeOf(importUIMessages).parameter(0).toEqualTypeOf<ReadonlyArray<UIMessage>>();
    expectTypeOf(importModelMessages).returns.toEqualTypeOf<Item[]>();
    expectTypeOf(importUIMessages).returns.toEqualTypeOf<Item[]>();
  });
});
