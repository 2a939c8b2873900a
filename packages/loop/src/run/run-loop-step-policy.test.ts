import type { OpenAIChatRequest } from "@ctxpipe/core";
import { describe, expect, it } from "vitest";
import { counterIds, fixedClock, systemText, tempStore } from "../__fixtures__/loop-fixtures.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { RunLoop } from "./run-loop.js";
import type { RunTurn } from "./run-turn.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

const ran: string[] = [];
const recorded = (name: string, category: string, result: string): LoopTool => ({
  name,
  category,
  run: () => {
    ran.push(name);
    return result;
  },
});
const tools: LoopTool[] = [recorded("read_notes", "docs", "notes"), recorded("publish", "release", "published")];

const reviewer = { id: "reviewer", name: "Reviewer", role: "Careful reviewer" };
const releaser = { id: "releaser", name: "Releaser", role: "Release manager" };

const workflow: WorkflowDefinition = {
  name: "Release",
  packageName: "ops-pack",
  steps: [
    { id: "review", name: "Review", instruction: "Review the notes.", agent: reviewer, toolPolicy: { deniedTools: ["publish"] } },
    { id: "publish", name: "Publish", instruction: "Publish the release." },
  ],
  edges: [{ from: "review", to: "publish", label: "approved", isDefault: true }],
};

const offered = (request: unknown) => (request as OpenAIChatRequest).tools?.map((tool) => tool.function.name);

describe("RunLoop: per-step agent and tool policy", () => {
  it("a step that denies a tool neither offers nor runs it; the next step offers it again, within one call", async () => {
    ran.length = 0;
    const { store } = tempStore();
    const model = scriptedModel([
      { toolCalls: [{ name: "publish" }] },
      { toolCalls: [{ name: "complete_step" }] },
      { toolCalls: [{ name: "publish" }] },
      { toolCalls: [{ name: "complete_step" }] },
      { text: "Released." },
    ]);
    const loop = new RunLoop({ model, store, workflow, tools, agent: releaser, newId: counterIds("m"), now: fixedClock() });
    await loop.continue({ runId: "r1", userInput: "Release" });

    expect(model.calls.map((call) => offered(call.request))).toEqual([
      ["read_notes", "complete_step"],
      ["read_notes", "complete_step"],
      ["read_notes", "publish", "complete_step"],
      ["read_notes", "publish", "complete_step"],
      ["read_notes", "publish"],
    ]);
    // Called anyway on the review step, it is refused; on the publish step it runs.
    expect(ran).toEqual(["publish"]);
    const results = (await store.load("run-r1")).messages.filter((message) => message.toolName === "publish");
    expect(results.map((message) => [message.is_error === true, message.content])).toEqual([
      [true, 'tool "publish" is not available here. Available tools: read_notes, complete_step.'],
      [false, "published"],
    ]);
  });

  it("the step's agent replaces the loop's in the prompt and signs what is written on that step; the policy the prompt states changes with it", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ toolCalls: [{ name: "complete_step" }] }, { text: "Publishing." }]);
    const loop = new RunLoop({ model, store, workflow, tools, agent: releaser, systemToolPolicy: { deniedCategories: ["billing"] }, newId: counterIds("m"), now: fixedClock() });
    await loop.continue({ runId: "r1", userInput: "Release" });
    const [onReview, onPublish] = model.calls.map((call) => systemText(call.request as OpenAIChatRequest));
    expect(onReview).toContain("Careful reviewer");
    expect(onReview).not.toContain("Release manager");
    expect(onReview).toContain("Denied tools: publish");
    expect(onPublish).not.toContain("Denied tools");
    expect(onPublish).toContain("Release manager");
    expect(onPublish).not.toContain("Careful reviewer");
    // The system-level deny holds on every step.
    expect(onReview).toContain("billing");
    expect(onPublish).toContain("billing");
    const log = (await store.load("run-r1")).messages;
    expect(log.map((message) => `${message.partType ?? message.role}:${message.agentId}`)).toEqual([
      "user:releaser",
      "assistant:reviewer",
      "tool_result:reviewer",
      "assistant:releaser",
    ]);
  });

  it("an engine's turn sets the step's agent, tool policy and tool list; a system-level deny still wins", async () => {
    ran.length = 0;
    const { store } = tempStore();
    const turns: RunTurn[] = [
      { runContext: { packageName: "p", workflowName: "w", currentStepId: "a", currentStepName: "A", stepInstruction: "Read." }, agent: reviewer, tools: ["read_notes"] },
      { runContext: { packageName: "p", workflowName: "w", currentStepId: "b", currentStepName: "B", stepInstruction: "Ship." }, toolPolicy: { allowedCategories: ["release", "docs"] } },
    ];
    const model = scriptedModel([{ toolCalls: [{ name: "read_notes" }] }, { text: "Done." }]);
    const loop = new RunLoop({ model, store, engine: ({ turn }) => turns[Math.min(turn, 1)]!, tools, systemToolPolicy: { deniedTools: ["read_notes"] } });
    await loop.continue({ runId: "r1", userInput: "Go" });
    // Turn 0 allows only read_notes, which the system level denies: nothing is offered, and the call is refused.
    expect(model.calls.map((call) => offered(call.request))).toEqual([undefined, ["publish"]]);
    expect(ran).toEqual([]);
    expect(systemText(model.calls[0]!.request as OpenAIChatRequest)).toContain("Careful reviewer");
  });

  it("rejects a step's agent or tool policy that does not validate, naming the field", () => {
    const { store } = tempStore();
    const bad = (step: Record<string, unknown>) => () =>
      new RunLoop({ model: scriptedModel([]), store, workflow: { ...workflow, steps: [workflow.steps[0]!, { ...workflow.steps[1]!, ...step }] } as WorkflowDefinition });
    expect(bad({ agent: { id: "x", name: "X" } })).toThrow(/steps\[1\]\.agent\.role/);
    expect(bad({ toolPolicy: { deniedTools: "publish" } })).toThrow(/steps\[1\]\.toolPolicy\.deniedTools/);
    expect(bad({ toolPolicy: { denyTools: ["publish"] } })).toThrow(/denyTools/);
  });
});
