import type { OpenAIChatRequest } from "@ctxpipe/core";
import { JsonlStore } from "@ctxpipe/store";
import { describe, expect, it } from "vitest";
import { counterIds, fixedClock, systemText, tempStore } from "../__fixtures__/loop-fixtures.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { RunLoop } from "./run-loop.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

const workflow: WorkflowDefinition = {
  name: "Release",
  packageName: "ops-pack",
  steps: [
    { id: "draft", name: "Draft notes", instruction: "Write the release notes." },
    { id: "review", name: "Review", instruction: "Review the notes." },
    { id: "publish", name: "Publish", instruction: "Publish the release." },
  ],
  edges: [
    { from: "draft", to: "review", label: "drafted", isDefault: true },
    { from: "review", to: "publish", label: "approved", isDefault: true },
    { from: "review", to: "draft", label: "rejected" },
  ],
};

const lint: LoopTool = { name: "lint_notes", run: () => "no problems" };

// Each loop stands for a process of its own, so each gets its own id prefix.
let processes = 0;
function runLoop(model: ReturnType<typeof scriptedModel>, store: JsonlStore) {
  const newId = counterIds(`p${++processes}-`);
  return new RunLoop({ model, store, workflow, tools: [lint], agent: { id: "rel", name: "Releaser", role: "Release manager" }, newId, now: fixedClock(), retryDelayMs: 0 });
}

describe("RunLoop: seed 003's run mode", () => {
  it("keeps the run's log under run-<runId>, every message marked with mode run and the run id", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ toolCalls: [{ name: "lint_notes", arguments: {} }] }, { text: "Notes drafted." }]);
    const result = await runLoop(model, store).continue({ runId: "r1", userInput: "Start the release" });
    expect(result).toMatchObject({ status: "completed", conversationId: "run-r1", runId: "r1" });
    const { messages } = await store.load("run-r1");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    for (const message of messages) expect(message).toMatchObject({ mode: "run", runId: "r1", agentId: "rel" });
    expect(messages[0]!.content).toBe("USER_INPUT (step: draft)\nStart the release");
    expect(messages[2]).toMatchObject({ toolName: "lint_notes", partType: "tool_result" });
    expect(typeof messages[2]!.duration).toBe("number");
    const prompt = systemText(model.calls[0]!.request as OpenAIChatRequest);
    expect(prompt).toContain("# Mode: RUN");
    expect(prompt).toContain("**Current Step:** Draft notes (draft)");
    expect(prompt).toContain("- **drafted** → review (default)");
  });

  it("moves through the workflow with complete_step; the next turn's directive shows the new step", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ toolCalls: [{ name: "complete_step", arguments: {} }] }, { text: "On to review." }]);
    const result = await runLoop(model, store).continue({ runId: "r1", userInput: "Go" });
    expect(result.state).toMatchObject({ status: "running", currentStep: { id: "review" }, stepsCompleted: ["draft"] });
    const second = systemText(model.calls[1]!.request as OpenAIChatRequest);
    expect(second).toContain("**Current Step:** Review (review)");
    expect(second).toContain("**Completed Steps:** draft");
    expect(second).toContain("- **rejected** → draft");
    const tool = (await store.load("run-r1")).messages.find((message) => message.role === "tool");
    expect(JSON.parse(String(tool!.content))).toEqual({ completed: "draft", transition: "drafted", next: "review" });
  });

  it("a restarted process resumes the run from the log", async () => {
    const { store, directory } = tempStore();
    await runLoop(scriptedModel([{ toolCalls: [{ name: "complete_step", arguments: {} }] }, { text: "Drafted." }]), store).continue({ runId: "r1", userInput: "Go" });
    // A new process: new store object, new loop, nothing in memory.
    const model = scriptedModel([{ toolCalls: [{ name: "complete_step", arguments: { transition: "rejected" } }] }, { text: "Back to drafting." }]);
    const restarted = runLoop(model, new JsonlStore({ directory }));
    expect(await restarted.state("r1")).toMatchObject({ currentStep: { id: "review" } });
    const result = await restarted.continue({ runId: "r1", userInput: "The notes miss the migration guide" });
    const first = model.calls[0]!.request as OpenAIChatRequest;
    expect(systemText(first)).toContain("**Current Step:** Review (review)");
    expect(JSON.stringify(first.messages)).toContain("Drafted.");
    expect(result.state).toMatchObject({ currentStep: { id: "draft" }, stepsCompleted: ["draft", "review"] });
    const stored = (await store.load("run-r1")).messages;
    expect(stored.find((message) => String(message.content).includes("migration guide"))!.content).toBe("USER_INPUT (step: review)\nThe notes miss the migration guide");
  });

  it("a completed workflow switches to the post-completion profile for the final answer: no active step, no complete_step", async () => {
    const { store } = tempStore();
    const model = scriptedModel([
      { toolCalls: [{ name: "complete_step", arguments: {} }] },
      { toolCalls: [{ name: "complete_step", arguments: { transition: "approved" } }] },
      { toolCalls: [{ name: "complete_step", arguments: {} }] },
      { text: "Released." },
    ]);
    const loop = runLoop(model, store);
    const done = await loop.continue({ runId: "r1", userInput: "Ship it" });
    expect(done.state).toEqual({
      status: "completed",
      currentStep: undefined,
      stepsCompleted: ["draft", "review", "publish"],
      ending: { status: "completed", recordId: "p5-9", createdAt: "2026-01-01T00:00:08.000Z", content: '{"result":"Released."}' },
    });
    const after = model.calls[3]!.request as OpenAIChatRequest;
    const prompt = systemText(after);
    expect(prompt).toContain("**Workflow Status:** completed");
    expect(prompt).not.toContain("Current Step");
    expect(prompt).not.toContain("Step Instruction");
    expect(prompt).not.toContain("Available Transitions");
    expect(after.tools?.map((tool) => tool.function.name)).toEqual(["lint_notes"]);
  });

  it("an unknown transition label is an error result, and the step does not move", async () => {
    const { store } = tempStore();
    await runLoop(scriptedModel([{ toolCalls: [{ name: "complete_step", arguments: {} }] }, { text: "ok" }]), store).continue({ runId: "r1", userInput: "Go" });
    const model = scriptedModel([{ toolCalls: [{ name: "complete_step", arguments: { transition: "ship-it-anyway" } }] }, { text: "Which one?" }]);
    const result = await runLoop(model, store).continue({ runId: "r1" });
    expect(result.state.currentStep?.id).toBe("review");
    const error = (await store.load("run-r1")).messages.filter((message) => message.role === "tool").at(-1)!;
    expect(error).toMatchObject({ is_error: true });
    expect(error.content).toContain('step "review" has no transition "ship-it-anyway": choose one of "approved", "rejected"');
  });

  it("persists each call's final failure once, with mode run, and stops identical failures repeated over calls with a clear error", async () => {
    const { store } = tempStore();
    const failure = { error: { message: "upstream timeout", code: "LLM_TIMEOUT" as const } };
    const model = scriptedModel([failure], { repeatLast: true });
    const waits: number[] = [];
    const loop = new RunLoop({ model, store, workflow, maxRetries: 2, retryDelayMs: 10, random: () => 0, sleep: async (ms) => void waits.push(ms) });
    const first = await loop.continue({ runId: "r1", userInput: "Go" });
    expect(first).toMatchObject({ status: "failed", error: { code: "LLM_TIMEOUT" } });
    expect((await loop.continue({ runId: "r1" })).error?.code).toBe("LLM_TIMEOUT");
    const third = await loop.continue({ runId: "r1" });
    expect(third.status).toBe("failed");
    expect(third.error?.code).toBe("LOOP_REPEATED_FAILURE");
    // Three calls of three attempts each: nine requests, six waits, three errors in the log.
    expect(model.calls).toHaveLength(9);
    expect(waits).toEqual([10, 20, 10, 20, 10, 20]);
    const messages = (await store.load("run-r1")).messages;
    expect(messages.map((message) => message.partType ?? message.role)).toEqual(["user", "error", "error", "error"]);
    for (const message of messages.slice(1)) expect(message).toMatchObject({ role: "assistant", mode: "run", runId: "r1", errorCode: "LLM_TIMEOUT" });
  });

  it("a run with no messages yet needs user input to start", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ text: "never" }]);
    await expect(runLoop(model, store).continue({ runId: "r1" })).rejects.toThrow(/userInput: run "r1" has no messages yet/);
    expect(model.calls).toHaveLength(0);
  });

  it("rejects an invalid workflow, naming the field", () => {
    const { store } = tempStore();
    const bad = { ...workflow, edges: [...(workflow.edges ?? []), { from: "review", to: "nowhere", label: "lost" }] };
    expect(() => new RunLoop({ model: scriptedModel([]), store, workflow: bad })).toThrow(/edges\[3\]\.to|edges\.3\.to/);
    expect(() => new RunLoop({ model: scriptedModel([]), store, workflow: { ...workflow, steps: [] } })).toThrow(/at least one step/);
    expect(() => new RunLoop({ model: scriptedModel([]), store: undefined as never, workflow })).toThrow(/store: run mode keeps its log in a store/);
  });
});
