import { type BuildResult, createPipeline } from "@ctxpipe/core";
import type { FunctionTool, ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expectTypeOf, test } from "vitest";
import { OpenAIResponsesRendererPlugin } from "./openai-responses-renderer-plugin.js";
import type {
  OpenAIResponsesAssistantMessage,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesInputContent,
  OpenAIResponsesInputMessage,
  OpenAIResponsesOutputMessage,
  OpenAIResponsesReasoningItem,
  OpenAIResponsesRequest,
  OpenAIResponsesVerbatimItem,
} from "./openai-responses-request.js";

describe("OpenAIResponsesRequest", () => {
  test("once the model is set, the request is the SDK's responses.create params (stored items of types ctxpipe has no model for aside)", () => {
    type Modelled =
      | OpenAIResponsesInputMessage
      | OpenAIResponsesAssistantMessage
      | OpenAIResponsesOutputMessage
      | OpenAIResponsesFunctionCall
      | OpenAIResponsesFunctionCallOutput
      | OpenAIResponsesReasoningItem;
    expectTypeOf<Omit<OpenAIResponsesRequest, "input"> & { model: string; input: Modelled[] }>().toExtend<ResponseCreateParamsNonStreaming>();
    // The verbatim item is the only other member of the input union.
    expectTypeOf<Exclude<OpenAIResponsesRequest["input"][number], Modelled>>().toEqualTypeOf<OpenAIResponsesVerbatimItem>();
  });

  test("each input item ctxpipe models is one of the SDK's input items", () => {
    expectTypeOf<OpenAIResponsesInputMessage>().toExtend<ResponseInputItem>();
    expectTypeOf<OpenAIResponsesAssistantMessage>().toExtend<ResponseInputItem>();
    expectTypeOf<OpenAIResponsesOutputMessage>().toExtend<ResponseInputItem>();
    expectTypeOf<OpenAIResponsesFunctionCall>().toExtend<ResponseInputItem>();
    expectTypeOf<OpenAIResponsesFunctionCallOutput>().toExtend<ResponseInputItem>();
    expectTypeOf<OpenAIResponsesReasoningItem>().toExtend<ResponseInputItem>();
  });

  test("content parts and tools are the SDK's", () => {
    expectTypeOf<OpenAIResponsesInputContent[]>().toExtend<Extract<ResponseInputItem, { role: "user" | "system" | "developer"; content: unknown }>["content"]>();
    expectTypeOf<OpenAIResponsesFunctionTool>().toExtend<FunctionTool>();
  });

  test('build(..., { renderer: "openai-responses" }) returns BuildResult<OpenAIResponsesRequest>', () => {
    const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()] });
    expectTypeOf(pipeline.build([], { renderer: "openai-responses" })).resolves.toEqualTypeOf<BuildResult<OpenAIResponsesRequest>>();
  });
});
