// OpenAIChatRequest stays a valid body for the `openai` package's create() without depending on it
// at run time: the SDK is a dev dependency, imported here for its types only.
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { describe, expectTypeOf, test } from "vitest";
import type { OpenAIChatRequest } from "./openai-chat-request.js";

describe("OpenAIChatRequest", () => {
  test("its messages and tools are what the openai SDK accepts", () => {
    expectTypeOf<OpenAIChatRequest["messages"]>().toExtend<ChatCompletionCreateParamsNonStreaming["messages"]>();
    expectTypeOf<NonNullable<OpenAIChatRequest["tools"]>>().toExtend<NonNullable<ChatCompletionCreateParamsNonStreaming["tools"]>>();
  });

  test("its prompt_cache_key is the SDK's", () => {
    expectTypeOf<NonNullable<OpenAIChatRequest["prompt_cache_key"]>>().toExtend<NonNullable<ChatCompletionCreateParamsNonStreaming["prompt_cache_key"]>>();
  });

  test("with a model, the whole request is a non-streaming create() body", () => {
    expectTypeOf<OpenAIChatRequest & { model: string }>().toExtend<ChatCompletionCreateParamsNonStreaming>();
    // Without one it is not: build() leaves the model out when the options give none.
    expectTypeOf<OpenAIChatRequest>().not.toExtend<ChatCompletionCreateParamsNonStreaming>();
  });
});
