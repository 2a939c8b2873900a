// The public API's types: what a user writes must type-check, and misuse must not.
import type { OpenAIResponsesRequest } from "@ctxpipe/renderers";
import { expectTypeOf, test } from "vitest";
import {
  ChatLoop,
  type LoopEvent,
  type LoopOptions,
  type LoopResult,
  type LoopTokenizerInfo,
  type LoopTool,
  retrieveContextTool,
  type ModelAdapter,
  type ModelReply,
  openAICompatibleModel,
  openAIResponsesModel,
  type OpenAIResponsesModelOptions,
  RunLoop,
  type RunResult,
  scriptedModel,
  type TokenCountingOptions,
  type TokenEstimate,
  type WorkflowDefinition,
} from "./index.js";

test("a loop takes any model adapter and returns a LoopResult", () => {
  expectTypeOf(new ChatLoop({ model: scriptedModel([]) }).send).returns.resolves.toEqualTypeOf<LoopResult>();
  expectTypeOf(scriptedModel([], { renderer: "anthropic" })).toExtend<ModelAdapter<"anthropic">>();
  // @ts-expect-error a model is required
  new ChatLoop({});
  // @ts-expect-error run mode is RunLoop's
  void new ChatLoop({ model: scriptedModel([]) }).send({ mode: "run" });
});

test("events narrow on their type", () => {
  const listen = (event: LoopEvent) => {
    if (event.type === "tool-ran") expectTypeOf(event.durationMs).toEqualTypeOf<number>();
    if (event.type === "model-failed") expectTypeOf(event.error.code).toExtend<`LLM_${string}`>();
  };
  expectTypeOf(listen).toBeFunction();
});

test("a run's result says where the run stands", () => {
  const workflow: WorkflowDefinition = { name: "w", packageName: "p", steps: [{ id: "a", name: "A", instruction: "Do A." }] };
  expectTypeOf<RunResult["state"]["status"]>().toEqualTypeOf<"running" | "completed" | "abandoned" | "terminated">();
  expectTypeOf(RunLoop.prototype.continue).parameter(0).toHaveProperty("runId").toEqualTypeOf<string>();
  expectTypeOf(workflow.steps[0]!.instruction).toEqualTypeOf<string>();
  // @ts-expect-error a step needs an instruction
  const missing: WorkflowDefinition = { name: "w", packageName: "p", steps: [{ id: "a", name: "A" }] };
  expectTypeOf(missing).not.toBeAny();
});

test("how a loop counts: tokenCounting takes a registry model and a fallback encoding", () => {
  expectTypeOf<LoopOptions["tokenCounting"]>().toEqualTypeOf<TokenCountingOptions | undefined>();
  expectTypeOf<TokenCountingOptions>().toEqualTypeOf<{ readonly fallback?: "o200k_base" | "cl100k_base"; readonly model?: string }>();
  const model = openAICompatibleModel({ model: "llama-3-local" });
  expectTypeOf(new ChatLoop({ model, tokenCounting: { fallback: "o200k_base" }, buildOptions: { maxTokens: 32_768 } })).toEqualTypeOf<ChatLoop>();
  expectTypeOf(new ChatLoop({ model, tokenCounting: { model: "gpt-4o" } })).toEqualTypeOf<ChatLoop>();
  // @ts-expect-error only the encodings counted exactly can be a fallback
  new ChatLoop({ model, tokenCounting: { fallback: "p50k_base" } });
  // @ts-expect-error tokenCounting has no such field
  new ChatLoop({ model, tokenCounting: { encoding: "o200k_base" } });
});

test("a result says how far the last estimate was off, and what the conversation counts with", () => {
  expectTypeOf<LoopResult["tokenEstimate"]>().toEqualTypeOf<TokenEstimate | undefined>();
  expectTypeOf<TokenEstimate>().toEqualTypeOf<{
    readonly counted: number;
    readonly reported: number;
    readonly exact: boolean;
    readonly offBy: number;
    readonly ratio: number;
  }>();
  expectTypeOf<LoopResult["tokenizer"]>().toEqualTypeOf<LoopTokenizerInfo | undefined>();
  expectTypeOf<LoopTokenizerInfo>().toEqualTypeOf<{ readonly name: string; readonly exact: boolean; readonly factor?: number }>();
  expectTypeOf<RunResult["tokenEstimate"]>().toEqualTypeOf<TokenEstimate | undefined>();
});

test("retrieveContextTool takes any store with loadOffloaded and gives a LoopTool", () => {
  const store = { loadOffloaded: async (_conversationId: string, _handle: string) => undefined };
  expectTypeOf(retrieveContextTool(store, "chat-1")).toEqualTypeOf<LoopTool>();
  expectTypeOf(retrieveContextTool).parameter(2).toEqualTypeOf<{ readonly maxChars?: number } | undefined>();
  // @ts-expect-error a store that cannot load offloaded text
  retrieveContextTool({ load: async () => undefined }, "chat-1");
});

test("openAIResponsesModel sends the openai-responses renderer's request; a reply carries extra fields to store", () => {
  const model = openAIResponsesModel({ model: "gpt-5-mini", body: { store: false, include: ["reasoning.encrypted_content"] } });
  expectTypeOf(model).toEqualTypeOf<ModelAdapter<"openai-responses">>();
  expectTypeOf(model.complete).parameter(0).toHaveProperty("request").toEqualTypeOf<OpenAIResponsesRequest>();
  expectTypeOf(new ChatLoop({ model })).toEqualTypeOf<ChatLoop>();
  expectTypeOf<OpenAIResponsesModelOptions["maxOutputTokens"]>().toEqualTypeOf<number | undefined>();
  expectTypeOf<ModelReply["extra"]>().toEqualTypeOf<Readonly<Record<string, unknown>> | undefined>();
  // @ts-expect-error the Responses API's limit is max_output_tokens: the option is maxOutputTokens
  openAIResponsesModel({ model: "gpt-5-mini", maxTokens: 100 });
  // @ts-expect-error a model name is required
  openAIResponsesModel({});
});
