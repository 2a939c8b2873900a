import type { OpenAIChatRequest } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import type { RunContextInput } from "@ctxpipe/system-prompt";
import { describe, expect, it, test } from "vitest";
import { counterIds, fixedClock, systemText, tempStore } from "../__fixtures__/loop-fixtures.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { RunLoop } from "./run-loop.js";
import type { RunTurn, RunTurnInput } from "./run-turn.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

const workflow: WorkflowDefinition = { name: "Release", packageName: "ops-pack", steps: [{ id: "draft", name: "Draft notes", instruction: "Write the release notes." }] };

/** A tiny engine: the step moves when the model calls `approve`, and the engine says so on the next turn. */
function approvalEngine() {
  const asked: RunTurnInput[] = [];
  const engine = async (input: RunTurnInput): Promise<RunTurn> => {
    asked.push(input);
    const approved = input.messages.some((message) => message.role === "tool" && message.toolName === "approve");
    const shipped = input.messages.some((message) => message.role === "tool" && message.toolName === "ship");
    const common = { packageName: "ops", workflowName: "release-engine" };
    if (shipped) return { runContext: { ...common, status: "completed", state: { stepsCompleted: ["review", "ship"] } } };
    return approved
      ? { runContext: { ...common, currentStepId: "ship", currentStepName: "Ship", stepInstruction: "Ship the build.", state: { stepsCompleted: ["review"], variables: { build: "2.4.2" } } } }
      : { runContext: { ...common, currentStepId: "review", currentStepName: "Review", stepInstruction: "Review the build.", state: { stepsCompleted: [], variables: { build: "2.4.2" } } } };
  };
  return { engine, asked };
}

const tools: LoopTool[] = [
  { name: "approve", run: () => "approved" },
  { name: "ship", run: () => "shipped" },
];

const toolNames = (request: unknown) => (request as OpenAIChatRequest).tools?.map((tool) => tool.function.name);

describe("RunLoop driven by a workflow engine of the caller's", () => {
  it("asks the engine at the start of every turn with the log as it stands; a tool that moves the engine shows on the next turn", async () => {
    const { store } = tempStore();
    const { engine, asked } = approvalEngine();
    const model = scriptedModel([{ toolCalls: [{ name: "approve" }] }, { toolCalls: [{ name: "ship" }] }, { text: "Shipped 2.4.2." }]);
    const loop = new RunLoop({ model, store, engine, tools, newId: counterIds("m"), now: fixedClock(), buildOptions: { runDirective: { variables: true } } });
    const result = await loop.continue({ runId: "r1", userInput: "Ship 2.4.2" });

    expect(asked.map((input) => ({ runId: input.runId, turn: input.turn, log: input.messages.map((message) => message.toolName ?? message.role) }))).toEqual([
      { runId: "r1", turn: 0, log: ["user"] },
      { runId: "r1", turn: 1, log: ["user", "assistant", "approve"] },
      { runId: "r1", turn: 2, log: ["user", "assistant", "approve", "assistant", "ship"] },
    ]);
    const prompts = model.calls.map((call) => systemText(call.request as OpenAIChatRequest));
    expect(prompts[0]).toContain("**Current Step:** Review (review)");
    expect(prompts[0]).toMatch(/### Variables[\s\S]*build[\s\S]*2\.4\.2/);
    expect(prompts[1]).toContain("**Current Step:** Ship (ship)");
    expect(prompts[1]).toContain("**Completed Steps:** review");
    expect(prompts[2]).toContain("**Workflow Status:** completed");
    expect(prompts[2]).not.toContain("Current Step");
    // The engine owns the steps: complete_step is never offered.
    for (const call of model.calls) expect(toolNames(call.request)).toEqual(["approve", "ship"]);

    // The engine said completed and the model answered: the run is recorded as completed.
    expect(result.state).toMatchObject({ status: "completed", currentStep: undefined, stepsCompleted: ["review", "ship"], ending: { content: '{"result":"Shipped 2.4.2."}' } });
    const log = (await store.load("run-r1")).messages;
    expect(log[0]!.content).toBe("USER_INPUT\nShip 2.4.2");
    expect(log.at(-1)).toMatchObject({ role: "assistant", partType: "task_completed", mode: "run", runId: "r1" });
    expect(await loop.state("r1")).toMatchObject({ status: "completed", currentStep: undefined });
  });

  it("is not asked again after a call's final failure (the failure count's load asks nothing)", async () => {
    const { store } = tempStore();
    const { engine, asked } = approvalEngine();
    const model = scriptedModel([{ error: { message: "bad request", code: "LLM_BAD_RESPONSE" } }]);
    const result = await new RunLoop({ model, store, engine, tools, maxRetries: 0 }).continue({ runId: "r1", userInput: "Ship" });
    expect(result.status).toBe("failed");
    expect(asked).toHaveLength(1);
    expect(result.state).toMatchObject({ status: "running", currentStep: { id: "review" } });
  });

  it("a per-call run context, in either shape, is the directive of every turn of that call; the engine is not asked", async () => {
    const { store } = tempStore();
    const { engine, asked } = approvalEngine();
    const model = scriptedModel([{ toolCalls: [{ name: "approve" }] }, { text: "Reviewed." }, { text: "Still reviewing." }]);
    const loop = new RunLoop({ model, store, engine, tools });
    const flat: RunContextInput = { packageName: "ops", workflowName: "wf", currentStepId: "qa", currentStepName: "QA", stepInstruction: "Test it." };
    const nested: RunContextInput = { packageName: "ops", workflowName: "wf", currentStep: { id: "qa", name: "QA", instruction: "Test it." } };
    const result = await loop.continue({ runId: "r1", userInput: "Check", runContext: flat });
    await loop.continue({ runId: "r1", userInput: "Again", runContext: nested });
    expect(asked).toHaveLength(0);
    const prompts = model.calls.map((call) => systemText(call.request as OpenAIChatRequest));
    expect(new Set(prompts).size).toBe(1);
    expect(prompts[0]).toContain("**Current Step:** QA (qa)");
    expect(result.state).toStrictEqual({ status: "running", currentStep: { id: "qa", name: "QA", instruction: "Test it." }, stepsCompleted: [] });
    const users = (await store.load("run-r1")).messages.filter((message) => message.role === "user");
    expect(users.map((message) => message.content)).toEqual(["USER_INPUT (step: qa)\nCheck", "USER_INPUT (step: qa)\nAgain"]);
  });

  it("a per-call run context replaces the loop's own workflow for that call: no complete_step, no step read from the log", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ text: "On it." }]);
    const loop = new RunLoop({ model, store, workflow, tools });
    await loop.continue({ runId: "r1", userInput: "Go", runContext: { packageName: "ops", workflowName: "wf", currentStepId: "qa", currentStepName: "QA", stepInstruction: "Test it." } });
    expect(toolNames(model.calls[0]!.request)).toEqual(["approve", "ship"]);
    expect(systemText(model.calls[0]!.request as OpenAIChatRequest)).toContain("**Current Step:** QA (qa)");
  });

  it("a bad per-call run context is the system prompt's typed error naming the field, and nothing is persisted", async () => {
    const { store } = tempStore();
    const loop = new RunLoop({ model: scriptedModel([{ text: "never" }]), store, workflow });
    const bad = { packageName: "ops", workflowName: "wf", currentStepId: "qa", currentStepName: "QA" } as unknown as RunContextInput;
    const error = await loop.continue({ runId: "r1", userInput: "Go", runContext: bad }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "SystemPromptInputError", code: "OPTIONS_INVALID", fields: ["runContext.stepInstruction"] });
    expect((await store.load("run-r1")).messages).toEqual([]);
  });

  test.for<{ name: string; turn: unknown; fields: string[]; says: string }>([
    { name: "no run context", turn: {}, fields: ["runContext"], says: "- runContext: required" },
    {
      name: "a flat run context without its instruction",
      turn: { runContext: { packageName: "p", workflowName: "w", currentStepId: "a", currentStepName: "A" } },
      fields: ["runContext.stepInstruction"],
      says: "- runContext.stepInstruction:",
    },
    { name: "a tool the loop does not have", turn: { runContext: { packageName: "p", workflowName: "w", status: "completed" }, tools: ["approve", "deploy"] }, fields: ["tools[1]"], says: '- tools[1]: no tool of the loop is named "deploy" (its tools: approve, ship)' },
    { name: "a misspelt field", turn: { runContext: { packageName: "p", workflowName: "w", status: "completed" }, toolpolicy: {} }, fields: ["toolpolicy"], says: "- toolpolicy: not a field of a run turn" },
    {
      name: "an agent without a role",
      turn: { runContext: { packageName: "p", workflowName: "w", status: "completed" }, agent: { id: "a", name: "A" } },
      fields: ["agent.role"],
      says: "- agent.role:",
    },
    { name: "not an object", turn: "review", fields: ["(turn)"], says: "- (turn): expected { runContext, agent?, toolPolicy?, tools? }, got string" },
  ])("an engine turn with $name is a RunTurnError naming the run, the turn and the field", async ({ turn, fields, says }) => {
    const { store } = tempStore();
    const loop = new RunLoop({ model: scriptedModel([{ text: "never" }]), store, engine: () => turn as RunTurn, tools });
    const error = await loop.continue({ runId: "r1", userInput: "Go" }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "RunTurnError", code: "LOOP_RUN_TURN_INVALID", runId: "r1", turn: 0, fields });
    expect((error as Error).message).toContain('RunLoop\'s engine returned an invalid turn for run "r1" (turn 0):');
    expect((error as Error).message).toContain(says);
    // The user input was persisted before the turn began; nothing else was.
    expect((await store.load("run-r1")).messages.map((message: StoredMessage) => message.role)).toEqual(["user"]);
  });

  test.for<{ name: string; options: Record<string, unknown>; message: string }>([
    { name: "both workflow and engine", options: { workflow, engine: () => ({}) }, message: "workflow, engine: give one, not both" },
    { name: "neither workflow nor engine", options: {}, message: "workflow, engine: give one: workflow when the loop owns the run's steps" },
    { name: "an engine that is not a function", options: { engine: "state-machine" }, message: "engine: must be a function ({ runId, messages, turn }) =>" },
  ])("refuses $name when the loop is made", ({ options, message }) => {
    const { store } = tempStore();
    expect(() => new RunLoop({ model: scriptedModel([]), store, ...options } as ConstructorParameters<typeof RunLoop>[0])).toThrow(message);
  });
});
