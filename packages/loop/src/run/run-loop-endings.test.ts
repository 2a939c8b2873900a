import type { ServerResponse } from "node:http";
import type { OpenAIChatRequest, PipelinePlugin } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import type { JsonlStore, StoredMessage } from "@ctxpipe/store";
import { afterEach, describe, expect, it, test } from "vitest";
import { counterIds, fixedClock, systemText, tempStore, textOf } from "../__fixtures__/loop-fixtures.js";
import { type LocalModelServer, startLocalModelServer } from "../model/__fixtures__/local-model-server.js";
import { anthropicModel } from "../model/anthropic-model.js";
import type { ModelAdapter } from "../model/model-adapter.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { RunEndedError } from "./run-ended-error.js";
import { RunLoop } from "./run-loop.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

const workflow: WorkflowDefinition = {
  name: "Release",
  packageName: "ops-pack",
  steps: [
    { id: "draft", name: "Draft notes", instruction: "Write the release notes." },
    { id: "publish", name: "Publish", instruction: "Publish the release." },
  ],
  edges: [{ from: "draft", to: "publish", label: "drafted", isDefault: true }],
};

const STAMP = { mode: "run", runId: "r1" };

function runLoop(model: ConstructorParameters<typeof RunLoop>[0]["model"], store: JsonlStore, tools: LoopTool[] = []) {
  return new RunLoop({ model, store, workflow, tools, newId: counterIds("m"), now: fixedClock(), retryDelayMs: 0 });
}

/** The log without ids and dates, which the tests fix anyway. */
async function shapes(store: JsonlStore): Promise<Array<Partial<StoredMessage>>> {
  const { messages } = await store.load("run-r1");
  return messages.map(({ id: _id, createdAt: _at, ...rest }) => rest);
}

describe("RunLoop: a run ends visibly", () => {
  it("completes once: the model's final answer after the last step is recorded as task_completed; then it takes follow-up questions only", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ toolCalls: [{ name: "complete_step" }] }, { toolCalls: [{ name: "complete_step" }] }, { text: "Published v2." }, { text: "It went out at noon." }]);
    const loop = runLoop(model, store);
    const result = await loop.continue({ runId: "r1", userInput: "Release" });
    expect(result.status).toBe("completed");
    expect(result.state).toMatchObject({ status: "completed", ending: { status: "completed", content: '{"result":"Published v2."}' } });
    expect(result.persisted.at(-1)).toMatchObject({ role: "assistant", partType: "task_completed" });
    expect((await shapes(store)).at(-1)).toStrictEqual({ role: "assistant", partType: "task_completed", content: '{"result":"Published v2."}', ...STAMP });

    // A follow-up question is answered with the post-completion prompt (no active step, no complete_step), and recorded once only.
    const followUp = await loop.continue({ runId: "r1", userInput: "When did it go out?" });
    expect(followUp).toMatchObject({ status: "completed", text: "It went out at noon.", state: { status: "completed", ending: { status: "completed", recordId: "m7" } } });
    const asked = model.calls[3]!.request as OpenAIChatRequest;
    expect(asked.tools ?? []).toEqual([]);
    expect(systemText(asked)).toContain("**Workflow Status:** completed");
    expect(systemText(asked)).not.toContain("**Current Step:**");
    expect((await store.load("run-r1")).messages.filter((message) => message.partType === "task_completed")).toHaveLength(1);
    // The task_completed record is sent as what it is, before the follow-up.
    expect(asked.messages.map(textOf).join("\n")).toContain("Task completed:");

    // Without input there is nothing to go on with.
    const refused = await loop.continue({ runId: "r1" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RunEndedError);
    expect(refused).toMatchObject({
      code: "LOOP_RUN_ENDED",
      runId: "r1",
      ending: { status: "completed", recordId: "m7" },
      message:
        'Run "r1" has completed (record "m7" of 2026-01-01T00:00:06.000Z): it takes follow-up questions only (continue with userInput; they are answered with the post-completion prompt); start a new run for new work.',
    });
    // Refused before anything was persisted or sent; a completed run cannot be terminated or abandoned either.
    await expect(loop.terminate("r1")).rejects.toBeInstanceOf(RunEndedError);
    await expect(loop.abandon("r1", { reason: "late" })).rejects.toBeInstanceOf(RunEndedError);
    expect((await store.load("run-r1")).messages).toHaveLength(9);
    expect(model.calls).toHaveLength(4);
  });

  it("a workflow completed without its final answer (the call ran out of turns) is recorded when the next call gets one", async () => {
    const { store } = tempStore();
    const steps = [{ toolCalls: [{ name: "complete_step" }] }, { toolCalls: [{ name: "complete_step" }] }];
    const first = await new RunLoop({ model: scriptedModel(steps), store, workflow, maxTurns: 2 }).continue({ runId: "r1", userInput: "Release" });
    expect(first).toMatchObject({ status: "max-turns", state: { status: "completed" } });
    expect(first.state.ending).toBeUndefined();
    const second = await runLoop(scriptedModel([{ text: "Done: v2 is out." }]), store).continue({ runId: "r1" });
    expect(second.state.ending).toMatchObject({ status: "completed", content: '{"result":"Done: v2 is out."}' });
    const endings = (await store.load("run-r1")).messages.filter((message) => message.partType === "task_completed");
    expect(endings).toHaveLength(1);
  });

  it("abandon() records the reason and the partial result once; the run then refuses continue(), abandon() and terminate()", async () => {
    const { store } = tempStore();
    const loop = runLoop(scriptedModel([{ text: "Drafting." }]), store);
    await loop.continue({ runId: "r1", userInput: "Release" });
    const state = await loop.abandon("r1", { reason: "the release was cancelled", partialResult: { notes: "half written" } });
    expect(state).toStrictEqual({
      status: "abandoned",
      currentStep: expect.objectContaining({ id: "draft" }),
      stepsCompleted: [],
      ending: { status: "abandoned", recordId: "m3", createdAt: "2026-01-01T00:00:02.000Z", content: '{"partialResult":{"notes":"half written"}}', reason: "the release was cancelled" },
    });
    expect((await shapes(store)).at(-1)).toStrictEqual({ role: "assistant", partType: "task_abandoned", reason: "the release was cancelled", content: '{"partialResult":{"notes":"half written"}}', ...STAMP });
    const message = 'Run "r1" was abandoned ("the release was cancelled") (record "m3" of 2026-01-01T00:00:02.000Z): it takes no more input; start a new run to go on.';
    await expect(loop.continue({ runId: "r1", userInput: "Go on" })).rejects.toThrow(message);
    await expect(loop.abandon("r1", { reason: "again" })).rejects.toThrow(message);
    await expect(loop.terminate("r1")).rejects.toThrow(message);
    expect((await store.load("run-r1")).messages).toHaveLength(3);
  });

  it("terminate() records who stopped the run once; continue() without input refuses, with input resumes it and the record stays", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ text: "Drafting." }, { text: "Back on the notes." }]);
    const loop = runLoop(model, store);
    await loop.continue({ runId: "r1", userInput: "Release" });
    const stopped = await loop.terminate("r1", { by: "operator", reason: "paused for the freeze" });
    expect(stopped).toMatchObject({ status: "terminated", ending: { status: "terminated", terminatedBy: "operator", content: "paused for the freeze" } });
    // Exactly once per ending: a second terminate() leaves the log as it is.
    expect(await loop.terminate("r1")).toStrictEqual(stopped);
    await expect(loop.continue({ runId: "r1" })).rejects.toThrow('Run "r1" was terminated by operator (record "m3" of 2026-01-01T00:00:02.000Z): continue it with userInput to resume it.');

    const resumed = await loop.continue({ runId: "r1", userInput: "The freeze is over" });
    expect(resumed.state).toStrictEqual({ status: "running", currentStep: expect.objectContaining({ id: "draft" }), stepsCompleted: [] });
    expect((await shapes(store)).map((message) => message.partType ?? message.role)).toEqual(["user", "assistant", "task_terminated", "user", "assistant"]);
    // The model reads the record as what it is.
    const request = model.calls[1]!.request as OpenAIChatRequest;
    expect(request.messages.slice(-2)).toStrictEqual([
      { role: "assistant", content: "Task terminated by operator:\npaused for the freeze" },
      { role: "user", content: "USER_INPUT (step: draft)\nThe freeze is over" },
    ]);
  });

  it("a call aborted through its signal records task_terminated by user after what it persisted", async () => {
    const { store } = tempStore();
    const controller = new AbortController();
    const slow: LoopTool = {
      name: "build",
      run: () => {
        controller.abort();
        return "built";
      },
    };
    const loop = runLoop(scriptedModel([{ toolCalls: [{ name: "build" }] }, { text: "never" }]), store, [slow]);
    const result = await loop.continue({ runId: "r1", userInput: "Release", signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect(result.state).toMatchObject({ status: "terminated", ending: { status: "terminated", terminatedBy: "user", content: "The run was stopped before it finished." } });
    expect((await shapes(store)).map((message) => message.partType ?? message.role)).toEqual(["user", "assistant", "tool_result", "task_terminated"]);
    expect(result.persisted.map((message) => message.partType ?? message.role)).toEqual(["user", "assistant", "tool_result", "task_terminated"]);
  });

  it("terminate() and abandon() stop a call of the run in progress and record the ending once, in its place", async () => {
    const { store } = tempStore();
    let entered!: () => void;
    const started = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const waiting: LoopTool = {
      name: "wait_for_approval",
      run: (_args, { signal }) =>
        new Promise((resolve) => {
          entered();
          signal.addEventListener("abort", () => resolve("stopped waiting"));
        }),
    };
    const loop = runLoop(scriptedModel([{ toolCalls: [{ name: "wait_for_approval" }] }, { text: "never" }]), store, [waiting]);
    const running = loop.continue({ runId: "r1", userInput: "Release" });
    await started;
    const state = await loop.abandon("r1", { reason: "approval never came" });
    const result = await running;
    expect(result.status).toBe("aborted");
    expect(state).toMatchObject({ status: "abandoned", ending: { reason: "approval never came" } });
    expect((await shapes(store)).map((message) => message.partType ?? message.role)).toEqual(["user", "assistant", "tool_result", "task_abandoned"]);
  });

  test.for<{ name: string; act: (loop: RunLoop) => Promise<unknown>; message: RegExp }>([
    { name: "abandon() without a reason", act: (loop) => loop.abandon("r1", { reason: " " }), message: /reason: abandon\(\) needs a non-empty reason/ },
    { name: "abandon() with a partial result that is not JSON", act: (loop) => loop.abandon("r1", { reason: "x", partialResult: () => 1 }), message: /partialResult: must be a JSON value/ },
    { name: "terminate() by nobody", act: (loop) => loop.terminate("r1", { by: "" }), message: /by: must be a non-empty string/ },
    { name: "terminate() of a run with no messages", act: (loop) => loop.terminate("nothing-here"), message: /runId: run "nothing-here" has no messages: there is nothing to terminate/ },
  ])("refuses $name, naming the field", async ({ act, message }) => {
    const { store } = tempStore();
    const loop = runLoop(scriptedModel([{ text: "Drafting." }]), store);
    await loop.continue({ runId: "r1", userInput: "Release" });
    await expect(act(loop)).rejects.toThrow(message);
    expect((await store.load("run-r1")).messages).toHaveLength(2);
  });
});

interface Provider {
  readonly name: string;
  readonly model: (url: string) => ModelAdapter;
  readonly plugins: ReadonlyArray<PipelinePlugin>;
  /** Streams the first piece of an answer, then hangs until the client goes. */
  readonly startAndHang: (response: ServerResponse) => void;
  readonly answer: (response: ServerResponse, text: string) => void;
}

const providers: ReadonlyArray<Provider> = [
  {
    name: "OpenAI-compatible",
    model: (url) => openAICompatibleModel({ model: "gpt-4o", baseURL: url, env: {} }),
    plugins: [],
    startAndHang: (response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Drafting the no" } }] })}\n\n`);
    },
    answer: (response, text) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: "stop" }] })}\n\n`);
      response.end("data: [DONE]\n\n");
    },
  },
  {
    name: "Anthropic Messages",
    model: (url) => anthropicModel({ model: "claude-haiku-4-5", baseURL: url, apiKey: "k", env: {} }),
    plugins: [new AnthropicMessagesRendererPlugin()],
    startAndHang: (response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const events = [
        { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-haiku-4-5", content: [], usage: { input_tokens: 5, output_tokens: 0 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Drafting the no" } },
      ];
      for (const event of events) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    answer: (response, text) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const events = [
        { type: "message_start", message: { id: "msg_2", type: "message", role: "assistant", model: "claude-haiku-4-5", content: [], usage: { input_tokens: 5, output_tokens: 0 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
        { type: "message_stop" },
      ];
      for (const event of events) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      response.end();
    },
  },
];

describe("RunLoop over HTTP: a cut-off answer ends the run as terminated", () => {
  let server: LocalModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test.for(providers)("$name: aborting mid-stream cancels the request, persists nothing of the answer and records task_terminated; new input resumes the run", async (provider) => {
    server = await startLocalModelServer();
    const { store } = tempStore();
    server.answer((response) => {
      if (server!.requests.length === 1) provider.startAndHang(response);
      else provider.answer(response, "Drafted.");
    });
    const loop = new RunLoop({ model: provider.model(server.url), plugins: provider.plugins, store, workflow, newId: counterIds("m"), now: fixedClock(), retryDelayMs: 0 });
    const controller = new AbortController();
    const result = await loop.continue({ runId: "r1", userInput: "Release", signal: controller.signal, onText: () => controller.abort() });
    expect(result.status).toBe("aborted");
    await server.requests[0]!.clientGone;
    expect(await shapes(store)).toStrictEqual([
      { role: "user", content: "USER_INPUT (step: draft)\nRelease", ...STAMP },
      { role: "assistant", partType: "task_terminated", terminatedBy: "user", content: "The run was stopped before it finished.", ...STAMP },
    ]);

    const resumed = await loop.continue({ runId: "r1", userInput: "Try again" });
    expect(resumed).toMatchObject({ status: "completed", text: "Drafted.", state: { status: "running" } });
    expect(server.requests).toHaveLength(2);
    // The second request carries the record as what it is, between the two inputs.
    const sent = JSON.stringify(server.requests[1]!.body);
    const order = ["USER_INPUT (step: draft)\\nRelease", "Task terminated by user:\\nThe run was stopped before it finished.", "USER_INPUT (step: draft)\\nTry again"].map((text) => sent.indexOf(text));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(sent).not.toContain("Drafting the no");
  });
});
