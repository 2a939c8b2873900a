import type { CacheControlEphemeral, MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";
import { type BuildResult, createPipeline } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";
import type { AnthropicCacheControl, AnthropicMessagesRequest } from "./anthropic-messages-request.js";
import { AnthropicMessagesRendererPlugin } from "./anthropic-messages-renderer-plugin.js";

describe("AnthropicMessagesRequest", () => {
  test("its messages, system, tools and max_tokens can be passed to the SDK as they are", () => {
    expectTypeOf<AnthropicMessagesRequest["messages"]>().toExtend<MessageCreateParamsNonStreaming["messages"]>();
    expectTypeOf<NonNullable<AnthropicMessagesRequest["system"]>>().toExtend<NonNullable<MessageCreateParamsNonStreaming["system"]>>();
    expectTypeOf<NonNullable<AnthropicMessagesRequest["tools"]>>().toExtend<NonNullable<MessageCreateParamsNonStreaming["tools"]>>();
    expectTypeOf<AnthropicMessagesRequest["max_tokens"]>().toExtend<MessageCreateParamsNonStreaming["max_tokens"]>();
  });

  test("its cache breakpoints are the SDK's cache_control", () => {
    expectTypeOf<AnthropicCacheControl>().toExtend<CacheControlEphemeral>();
  });

  test("once the model is set, the whole request is SDK params", () => {
    expectTypeOf<AnthropicMessagesRequest & { model: string }>().toExtend<MessageCreateParamsNonStreaming>();
  });

  test('build(..., { renderer: "anthropic" }) returns BuildResult<AnthropicMessagesRequest>', () => {
    const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin()] });
    expectTypeOf(pipeline.build([], { renderer: "anthropic" })).resolves.toEqualTypeOf<BuildResult<AnthropicMessagesRequest>>();
  });
});
