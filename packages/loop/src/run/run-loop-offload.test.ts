// Run mode shares the tool loop: a step's giant tool output is cut, kept whole in the run's log, and
// retrieve_context is offered beside the step's tools (complete_step included) unless a policy denies it.
import { contentHandle, type OpenAIChatRequest } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { RunLoop } from "./run-loop.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

const workflow: WorkflowDefinition = {
  name: "Triage",
  packageName: "ops-pack",
  steps: [
    { id: "collect", name: "Collect", instruction: "Read the log." },
    { id: "report", name: "Report", instruction: "Report the cause." },
  ],
  edges: [{ from: "collect", to: "report", label: "collected", isDefault: true }],
};
const LOG = Array.from({ length: 4000 }, (_, index) => `event ${index}: queue depth ${(index * 17) % 1000}`).join("\n");
const dump: LoopTool = { name: "dump_queue", run: () => LOG };
const toolNames = (request: unknown) => ((request as OpenAIChatRequest & { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((tool) => tool.function.name);

describe("RunLoop: offloaded text", () => {
  test.for([
    { name: "offered beside the step's tools", toolPolicy: undefined, offered: ["dump_queue", "complete_step", "retrieve_context"] },
    { name: "kept out by a run policy that denies it", toolPolicy: { deniedTools: ["retrieve_context"] }, offered: ["dump_queue", "complete_step"] },
  ])("retrieve_context is $name once the run's log holds offloaded text", async ({ toolPolicy, offered }) => {
    const { store } = tempStore();
    const model = scriptedModel([{ toolCalls: [{ name: "dump_queue" }] }, { text: "Collected." }], { model: "gpt-4o-mini" });
    const loop = new RunLoop({ model, store, workflow, tools: [dump], buildOptions: { maxTokens: 16_000 }, ...(toolPolicy === undefined ? {} : { toolPolicy }) });
    const result = await loop.continue({ runId: "r1", userInput: "Start" });
    expect(result.status).toBe("completed");
    expect(model.calls.map((call) => toolNames(call.request))).toStrictEqual([["dump_queue", "complete_step"], offered]);
    expect(await store.loadOffloaded("run-r1", contentHandle(LOG))).toMatchObject({ text: LOG });
  });
});
