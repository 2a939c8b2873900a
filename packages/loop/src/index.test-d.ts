// The public API's types: what a user writes must type-check, and misuse must not.
import { expectTypeOf, test } from "vitest";
import { ChatLoop, type LoopEvent, type LoopResult, type ModelAdapter, RunLoop, type RunResult, scriptedModel, type WorkflowDefinition } from "./index.js";

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
  expectTypeOf<RunResult["state"]["status"]>().toEqualTypeOf<"running" | "completed">();
  expectTypeOf(RunLoop.prototype.continue).parameter(0).toHaveProperty("runId").toEqualTypeOf<string>();
  expectTypeOf(workflow.steps[0]!.instruction).toEqualTypeOf<string>();
  // @ts-expect-error a step needs an instruction
  const missing: WorkflowDefinition = { name: "w", packageName: "p", steps: [{ id: "a", name: "A" }] };
  expectTypeOf(missing).not.toBeAny();
});
