import { type BuildResult, createPipeline } from "@ctxpipe/core";
import OpenAI from "openai";
import type { FunctionTool, ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expectTypeOf, test } from "vitest";
import { OpenAIResponsesRendererPlugin } from "./openai-responses-renderer-plugin.js";
import type {
  OpenAIResponsesAssistantMessage,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesInputContent,
  OpenAIResponsesInputItem,
  OpenAIResponsesInputMessage,
  OpenAIResponsesOutputMessageContent,
  OpenAIResponsesOutputMessage,
  OpenAIResponsesReasoningItem,
  OpenAIResponsesRequest,
  OpenAIResponsesVerbatimItem,
} from "./openai-responses-request.js";

describe("OpenAIResponsesRequest", () => {
  test("once the model is set, the request is the SDK's responses.create params", () => {
    expectTypeOf<OpenAIResponsesRequest & { model: string }>().toExtend<ResponseCreateParamsNonStreaming>();
    // Stored items of other types ride in `input` verbatim, but are no member of its type.
    expectTypeOf<OpenAIResponsesVerbatimItem>().not.toExtend<OpenAIResponsesInputItem>();
  });

  test("a built request goes to openai.responses.create as it is, once the model is set", () => {
    const openai = new OpenAI({ apiKey: "not used: the call is only type-checked" });
    const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()] });
    const send = async () => {
      const result = await pipeline.build([], { renderer: "openai-responses", model: "gpt-5" });
      return openai.responses.create({ ...result.request, model: "gpt-5" });
    };
    expectTypeOf(send).returns.resolves.toExtend<{ id: string; output: unknown[] }>();
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
    expectTypeOf<OpenAIResponsesOutputMessageContent[]>().toExtend<Extract<ResponseInputItem, { role: "assistant"; id: string }>["content"]>();
    expectTypeOf<OpenAIResponsesFunctionTool>().toExtend<FunctionTool>();
  });

  test('build(..., { renderer: "openai-responses" }) returns BuildResult<OpenAIResponsesRequest>', () => {
    const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()] });
    expectTypeOf(pipeline.build([], { renderer: "openai-responses" })).resolves.toEqualTypeOf<BuildResult<OpenAIResponsesRequest>>();
  });
});
