// A run driven by a workflow engine of the caller's, over HTTP for both adapters: each request the
// provider receives carries the step the engine said at the start of that turn (directive, variables,
// tools offered, agent), a tool the model calls moves the engine for the next turn, and the run ends
// with its task_completed record.
import type { PipelinePlugin } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import { afterEach, describe, expect, test } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { type Answer, type LocalModelServer, sse, sseText, startLocalModelServer } from "../model/__fixtures__/local-model-server.js";
import { anthropicModel } from "../model/anthropic-model.js";
import type { ModelAdapter } from "../model/model-adapter.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { RunLoop } from "./run-loop.js";
import type { RunTurn, RunTurnInput } from "./run-turn.js";

interface Provider {
  readonly name: string;
  readonly model: (url: string) => ModelAdapter;
  readonly plugins: ReadonlyArray<PipelinePlugin>;
  readonly callTool: (id: string, name: string) => Answer;
  readonly say: (text: string) => Answer;
  /** The system prompt and the names of the tools offered, as the provider received them. */
  readonly read: (body: unknown) => { system: string; tools: string[] };
}

const providers: ReadonlyArray<Provider> = [
  {
    name: "OpenAI-compatible",
    model: (url) => openAICompatibleModel({ model: "gpt-4o", baseURL: url, env: {} }),
    plugins: [],
    callTool: (id, name) =>
      sse(
        sseText([
          { data: { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: "{}" } }] } }] } },
          { data: { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] } },
          { data: "[DONE]" },
        ]),
      ),
    say: (text) => sse(sseText([{ data: { choices: [{ index: 0, delta: { content: text }, finish_reason: "stop" }] } }, { data: "[DONE]" }])),
    read: (body) => {
      const request = body as { messages: Array<{ role: string; content: string }>; tools?: Array<{ function: { name: string } }> };
      return { system: request.messages[0]?.role === "system" ? request.messages[0].content : "", tools: (request.tools ?? []).map((tool) => tool.function.name) };
    },
  },
  {
    name: "Anthropic Messages",
    model: (url) => anthropicModel({ model: "claude-haiku-4-5", baseURL: url, apiKey: "k", env: {} }),
    plugins: [new AnthropicMessagesRendererPlugin()],
    callTool: (id, name) =>
      sse(
        sseText([
          { event: "message_start", data: { type: "message_start", message: { id: "msg", type: "message", role: "assistant", model: "claude-haiku-4-5", content: [], usage: { input_tokens: 10, output_tokens: 0 } } } },
          { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "tool_use", id, name, input: {} } } },
          { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{}" } } },
          { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
          { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } } },
          { event: "message_stop", data: { type: "message_stop" } },
        ]),
      ),
    say: (text) =>
      sse(
        sseText([
          { event: "message_start", data: { type: "message_start", message: { id: "msg", type: "message", role: "assistant", model: "claude-haiku-4-5", content: [], usage: { input_tokens: 10, output_tokens: 0 } } } },
          { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } },
          { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } } },
          { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
          { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } } },
          { event: "message_stop", data: { type: "message_stop" } },
        ]),
      ),
    read: (body) => {
      const request = body as { system?: string | Array<{ text: string }>; tools?: Array<{ name: string }> };
      const system = typeof request.system === "string" ? request.system : (request.system ?? []).map((block) => block.text).join("\n");
      return { system, tools: (request.tools ?? []).map((tool) => tool.name) };
    },
  },
];

/** An engine of the caller's: review until `approve` ran, then ship until `ship` ran, then completed. Review is the reviewer's, who may not ship. */
function releaseEngine() {
  const asked: RunTurnInput[] = [];
  const ran = (input: RunTurnInput, tool: string) => input.messages.some((message) => message.role === "tool" && message.toolName === tool);
  const engine = (input: RunTurnInput): RunTurn => {
    asked.push(input);
    const common = { packageName: "ops", workflowName: "release" };
    if (ran(input, "ship")) return { runContext: { ...common, status: "completed", state: { stepsCompleted: ["review", "ship"] } }, tools: [] };
    if (ran(input, "approve")) {
      return { runContext: { ...common, currentStepId: "ship", currentStepName: "Ship", stepInstruction: "Ship the build.", state: { stepsCompleted: ["review"], variables: { build: "2.4.2", approvedBy: "reviewer" } } }, tools: ["ship"] };
    }
    return {
      runContext: { ...common, currentStepId: "review", currentStepName: "Review", stepInstruction: "Review the build.", state: { stepsCompleted: [], variables: { build: "2.4.2" } } },
      agent: { id: "reviewer", name: "Reviewer", role: "Release reviewer" },
      toolPolicy: { deniedTools: ["ship"] },
    };
  };
  return { engine, asked };
}

const tools: LoopTool[] = [
  { name: "approve", description: "Approve the build.", run: () => "approved" },
  { name: "ship", description: "Ship the build.", run: () => "shipped 2.4.2" },
];

describe("RunLoop driven by an engine, over HTTP", () => {
  let server: LocalModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test.for(providers)("$name: every request carries the step the engine said at that turn's start, and the run ends recorded", async (provider) => {
    server = await startLocalModelServer();
    const replies = [provider.callTool("call_approve", "approve"), provider.callTool("call_ship", "ship"), provider.say("Shipped 2.4.2.")];
    server.answer((response, request) => replies[server!.requests.indexOf(request)]!(response, request));
    const { store } = tempStore();
    const { engine, asked } = releaseEngine();
    const loop = new RunLoop({
      model: provider.model(server.url),
      plugins: provider.plugins,
      store,
      engine,
      tools,
      agent: { id: "releaser", name: "Releaser", role: "Release manager" },
      buildOptions: { runDirective: { variables: true } },
      newId: counterIds("m"),
      now: fixedClock(),
    });
    const result = await loop.continue({ runId: "r1", userInput: "Ship 2.4.2" });

    expect(result).toMatchObject({ status: "completed", text: "Shipped 2.4.2.", state: { status: "completed", ending: { status: "completed" } } });
    expect(asked.map((input) => input.turn)).toEqual([0, 1, 2]);
    const sent = server.requests.map((request) => provider.read(request.body));
    expect(sent).toHaveLength(3);
    // Turn 0: the review step, as the reviewer, who may not ship.
    expect(sent[0]!.system).toContain("**Current Step:** Review (review)");
    expect(sent[0]!.system).toContain("Release reviewer");
    expect(sent[0]!.tools).toEqual(["approve"]);
    // Turn 1: approve moved the engine; the ship step offers only ship, with the engine's variables.
    expect(sent[1]!.system).toContain("**Current Step:** Ship (ship)");
    expect(sent[1]!.system).toMatch(/approvedBy[\s\S]*reviewer/);
    expect(sent[1]!.system).toContain("Release manager");
    expect(sent[1]!.tools).toEqual(["ship"]);
    // Turn 2: the engine said completed; the post-completion prompt, no tools, never complete_step.
    expect(sent[2]!.system).toContain("**Workflow Status:** completed");
    expect(sent[2]!.system).not.toContain("**Current Step:**");
    expect(sent[2]!.tools).toEqual([]);

    const { messages } = await store.load("run-r1");
    expect(messages.map((message) => message.partType ?? message.role)).toEqual(["user", "assistant", "tool_result", "assistant", "tool_result", "assistant", "task_completed"]);
    // Each message is signed by the agent of the step it was written on.
    expect(messages.slice(1, 3).map((message) => message.agentId)).toEqual(["reviewer", "reviewer"]);
    expect(messages.slice(3, 5).map((message) => message.agentId)).toEqual(["releaser", "releaser"]);
    expect(messages.at(-1)).toMatchObject({ content: '{"result":"Shipped 2.4.2."}', mode: "run", runId: "r1" });
  });
});
