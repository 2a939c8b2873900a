import type { OpenAIChatRequest } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import { describe, expect, it } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool, ToolRunContext } from "../tools/loop-tool.js";
import { RunLoop } from "./run-loop.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

const workflow: WorkflowDefinition = {
  name: "Release",
  packageName: "ops-pack",
  steps: [{ id: "build", name: "Build", instruction: "Build the release.", toolPolicy: { deniedTools: ["notify"] } }],
};

/** What a process killed in the middle of two tool calls leaves: the answer that made them, no results. */
const crashed: StoredMessage[] = [
  { id: "u1", role: "user", content: "USER_INPUT (step: build)\nBuild it", mode: "run", runId: "r1" },
  {
    id: "a1",
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_build", type: "function", function: { name: "compile", arguments: "{}" } },
      { id: "call_notify", type: "function", function: { name: "notify", arguments: "{}" } },
    ],
    mode: "run",
    runId: "r1",
  },
];

function recordingTools(runs: Array<{ name: string; context: ToolRunContext }>): LoopTool[] {
  return ["compile", "notify"].map((name) => ({
    name,
    run: (_args: Record<string, unknown>, context: ToolRunContext) => {
      runs.push({ name, context });
      return `${name} done`;
    },
  }));
}

describe("RunLoop: tool calls a stopped process left without results", () => {
  it("are answered as interrupted before the new input is persisted, so each call is still followed by its result", async () => {
    const { store } = tempStore();
    await store.append("run-r1", crashed);
    const runs: Array<{ name: string; context: ToolRunContext }> = [];
    const model = scriptedModel([{ text: "Building again." }]);
    const loop = new RunLoop({ model, store, workflow, tools: recordingTools(runs), newId: counterIds("m"), now: fixedClock() });
    const result = await loop.continue({ runId: "r1", userInput: "Where were we?" });
    expect(runs).toEqual([]);
    const log = (await store.load("run-r1")).messages;
    expect(log.slice(2).map((message) => [message.role, message.tool_call_id, message.interrupted, message.is_error])).toEqual([
      ["tool", "call_build", true, true],
      ["tool", "call_notify", true, true],
      ["user", undefined, undefined, undefined],
      ["assistant", undefined, undefined, undefined],
    ]);
    expect(log[4]).toMatchObject({ content: "USER_INPUT (step: build)\nWhere were we?", mode: "run", runId: "r1" });
    expect(result.persisted.map((message) => message.id)).toEqual(log.slice(2).map((message) => message.id));
    // The request carries the results right after their calls: nothing left for the repair stage.
    expect(result.lastBuild?.report.synthesized.filter((entry) => entry.type === "tool-result")).toEqual([]);
    expect((model.calls[0]!.request as OpenAIChatRequest).messages.filter((message) => message.role === "tool")).toHaveLength(2);
  });

  it('with interruptedToolCalls: "rerun", runs them again with the tools of the step the run is on: a tool the step denies is answered as unavailable', async () => {
    const { store } = tempStore();
    await store.append("run-r1", crashed);
    const runs: Array<{ name: string; context: ToolRunContext }> = [];
    const loop = new RunLoop({ model: scriptedModel([{ text: "Built." }]), store, workflow, tools: recordingTools(runs), interruptedToolCalls: "rerun" });
    await loop.continue({ runId: "r1" });
    expect(runs.map(({ name, context }) => ({ name, callId: context.callId, interrupted: context.interrupted }))).toEqual([{ name: "compile", callId: "call_build", interrupted: true }]);
    const results = (await store.load("run-r1")).messages.filter((message) => message.role === "tool");
    expect(results.map((message) => [message.tool_call_id, message.is_error === true, message.content])).toEqual([
      ["call_build", false, "compile done"],
      ["call_notify", true, 'tool "notify" is not available here. Available tools: compile, complete_step.'],
    ]);
  });
});
