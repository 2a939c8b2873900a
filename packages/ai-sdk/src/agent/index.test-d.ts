// The public API against the real `ai` 7 types: what a user writes type-checks without a cast.
import type { BuildResult } from "@ctxpipe/core";
import { generateText, type LanguageModelMiddleware, type PrepareStepFunction, streamText, type Tool, ToolLoopAgent, type ToolSet, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import type { AiSdkRequest } from "../messages/index.js";
import { type AiSdkBuildInfo, type AiSdkContext, type AiSdkRetrieveTools, createAiSdkContext, ctxpipeMiddleware, ctxpipePrepareStep } from "./index.js";

const tools = { weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` }) };
const model = new MockLanguageModelV4();

test("prepareStep fits generateText, streamText and ToolLoopAgent as it is", () => {
  const context = createAiSdkContext({ tools });
  expectTypeOf(context.prepareStep).toExtend<PrepareStepFunction<typeof tools>>();
  expectTypeOf(ctxpipePrepareStep()).toExtend<PrepareStepFunction<typeof tools>>();
  void (() => generateText({ model, tools, prompt: "Weather in Paris?", prepareStep: context.prepareStep }));
  void (() => streamText({ model, tools, prompt: "Weather in Paris?", prepareStep: context.prepareStep }));
  void (() => new ToolLoopAgent({ model, tools, prepareStep: ctxpipePrepareStep({ maxTokens: 8_000 }) }));
});

test("the middleware fits wrapLanguageModel", () => {
  const context = createAiSdkContext();
  expectTypeOf(context.middleware).toEqualTypeOf<LanguageModelMiddleware>();
  expectTypeOf(ctxpipeMiddleware({ maxTokens: 8_000 })).toEqualTypeOf<LanguageModelMiddleware>();
  void wrapLanguageModel({ model, middleware: context.middleware });
  void wrapLanguageModel({ model, middleware: [ctxpipeMiddleware()] });
});

test("the last build and the build callback are typed by the ai-sdk request", () => {
  const context: AiSdkContext = createAiSdkContext({
    onBuild: (result, info) => {
      expectTypeOf(result).toEqualTypeOf<BuildResult<AiSdkRequest>>();
      expectTypeOf(info).toEqualTypeOf<AiSdkBuildInfo>();
    },
  });
  expectTypeOf(context.lastBuild).toEqualTypeOf<BuildResult<AiSdkRequest> | undefined>();
  expectTypeOf(context.lastBuild!.request.messages).toExtend<Parameters<typeof generateText>[0]["messages"]>();
});

test("options are checked by type too", () => {
  // @ts-expect-error maxTokens is a number
  createAiSdkContext({ maxTokens: "8k" });
  // @ts-expect-error an encoding the tokenizers know
  createAiSdkContext({ fallback: "p50k_base" });
});

test("context.tools spreads into generateText's tools beside the caller's, and its input is typed", () => {
  const context = createAiSdkContext({ tools, maxOffloadedChars: 1_000_000, retrieveMaxChars: 5_000, loadOffloaded: async (handle) => (handle === "" ? undefined : "text") });
  const all = { ...tools, ...context.tools };
  expectTypeOf(all).toExtend<ToolSet>();
  void (() => generateText({ model, tools: all, prompt: "Weather in Paris?", prepareStep: context.prepareStep }));
  expectTypeOf(context.tools.retrieve_context).toEqualTypeOf<Tool<{ readonly handle: string; readonly from?: number; readonly to?: number }, string>>();
  expectTypeOf<AiSdkRetrieveTools>().toEqualTypeOf<AiSdkContext["tools"]>();
  // @ts-expect-error loadOffloaded returns the text or undefined
  createAiSdkContext({ loadOffloaded: (handle: string) => handle.length });
});
