import type { BuildReport, ItemInput, PipelinePlugin, Rule } from "@ctxpipe/core";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expectTypeOf, test } from "vitest";
import { ctxpipeTrimMessages, ctxpipeTrimMessagesWithReport, importLangChainMessages, LangChainRendererPlugin, type LangChainRequest, langChainRules } from "./index.js";

describe("@ctxpipe/langchain's public API", () => {
  test("the importer takes BaseMessage[] and gives items", () => {
    expectTypeOf(importLangChainMessages).toBeCallableWith([] as BaseMessage[]);
    expectTypeOf(importLangChainMessages).toBeCallableWith([] as ReadonlyArray<BaseMessage>, { idPrefix: "m-" });
    expectTypeOf(importLangChainMessages).returns.toEqualTypeOf<ItemInput[]>();
  });

  test("the renderer is a pipeline plugin and its rules check a LangChain request", () => {
    expectTypeOf(new LangChainRendererPlugin()).toExtend<PipelinePlugin>();
    expectTypeOf(langChainRules).toExtend<ReadonlyArray<Rule<LangChainRequest>>>();
  });

  test("the trim drop-in returns the messages, or the messages with the report", () => {
    expectTypeOf(ctxpipeTrimMessages).returns.resolves.toEqualTypeOf<BaseMessage[]>();
    expectTypeOf(ctxpipeTrimMessagesWithReport).returns.resolves.toHaveProperty("report").toEqualTypeOf<BuildReport>();
  });
});
