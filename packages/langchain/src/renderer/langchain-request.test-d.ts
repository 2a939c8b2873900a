import { type BuildResult, createPipeline } from "@ctxpipe/core";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expectTypeOf, test } from "vitest";
import type { LangChainRequest } from "./langchain-request.js";
import { LangChainRendererPlugin } from "./langchain-renderer-plugin.js";

describe("LangChainRequest", () => {
  test("its messages are BaseMessage[], which a chat model's invoke() takes as they are", () => {
    expectTypeOf<LangChainRequest["messages"]>().toEqualTypeOf<BaseMessage[]>();
    expectTypeOf<LangChainRequest["messages"]>().toExtend<Parameters<BaseChatModel["invoke"]>[0]>();
  });

  test('build(..., { renderer: "langchain" }) returns BuildResult<LangChainRequest>', () => {
    const pipeline = createPipeline({ plugins: [new LangChainRendererPlugin()] });
    expectTypeOf(pipeline.build([], { renderer: "langchain" })).resolves.toEqualTypeOf<BuildResult<LangChainRequest>>();
  });
});
