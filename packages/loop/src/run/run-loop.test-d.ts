// Run mode's public types: an engine, a per-call run context in either shape, per-step settings and
// the endings must type-check as a user writes them, and misuse must not.
import { expectTypeOf, test } from "vitest";
import { type RunEndedError, type RunEnding, type RunEngine, RunLoop, type RunResult, type RunStatus, type RunTurn, type RunTurnInput, scriptedModel, type WorkflowDefinition } from "../index.js";

declare const store: ConstructorParameters<typeof RunLoop>[0]["store"];

test("an engine answers a turn, synchronously or not", () => {
  const engine: RunEngine = ({ runId, messages, turn }: RunTurnInput) => {
    expectTypeOf(runId).toEqualTypeOf<string>();
    expectTypeOf(turn).toEqualTypeOf<number>();
    expectTypeOf(messages.length).toEqualTypeOf<number>();
    return { runContext: { packageName: "p", workflowName: "w", currentStepId: "a", currentStepName: "A", stepInstruction: "Do A." }, tools: ["t"] };
  };
  const later: RunEngine = async () => ({ runContext: { packageName: "p", workflowName: "w", status: "completed" } });
  expectTypeOf(new RunLoop({ model: scriptedModel([]), store, engine })).toEqualTypeOf<RunLoop>();
  expectTypeOf(new RunLoop({ model: scriptedModel([]), store, engine: later })).toEqualTypeOf<RunLoop>();
  // @ts-expect-error a turn needs a run context
  const missing: RunTurn = { tools: [] };
  expectTypeOf(missing).not.toBeAny();
});

test("a call's run context takes either shape", () => {
  const loop = new RunLoop({ model: scriptedModel([]), store, workflow: { name: "w", packageName: "p", steps: [{ id: "a", name: "A", instruction: "Do A." }] } });
  expectTypeOf(loop.continue).toBeCallableWith({ runId: "r", runContext: { packageName: "p", workflowName: "w", currentStep: { id: "a", name: "A", instruction: "Do A." } } });
  expectTypeOf(loop.continue).toBeCallableWith({ runId: "r", runContext: { packageName: "p", workflowName: "w", currentStepId: "a", currentStepName: "A", stepInstruction: "Do A." } });
});

test("a step may carry its agent and tool policy", () => {
  const workflow: WorkflowDefinition = {
    name: "w",
    packageName: "p",
    steps: [{ id: "a", name: "A", instruction: "Do A.", agent: { id: "x", name: "X", role: "Reviewer" }, toolPolicy: { deniedTools: ["publish"] } }],
  };
  expectTypeOf(workflow.steps[0]!.toolPolicy?.deniedTools).toEqualTypeOf<string[] | undefined>();
});

test("a run's result says how it ended", () => {
  expectTypeOf<RunResult["state"]["status"]>().toEqualTypeOf<RunStatus>();
  expectTypeOf<RunStatus>().toEqualTypeOf<"running" | "completed" | "abandoned" | "terminated">();
  expectTypeOf<RunResult["state"]["ending"]>().toEqualTypeOf<RunEnding | undefined>();
  expectTypeOf<RunEnding["status"]>().toEqualTypeOf<"completed" | "abandoned" | "terminated">();
  expectTypeOf(RunLoop.prototype.abandon).parameter(1).toHaveProperty("reason").toEqualTypeOf<string>();
  expectTypeOf(RunLoop.prototype.terminate).returns.resolves.toHaveProperty("status").toEqualTypeOf<RunStatus>();
  expectTypeOf<RunEndedError["ending"]>().toEqualTypeOf<RunEnding>();
});
