// Failures over real HTTP, for both adapters: a retried failure leaves one message per real event in
// the log, Retry-After sets the wait, and a failure that persists is persisted once per call and never
// sent back to the model.
import type { ServerResponse } from "node:http";
import type { PipelinePlugin } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import { afterEach, beforeEach, describe, expect, it, test } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import type { ModelAdapter } from "../model/model-adapter.js";
import { anthropicModel } from "../model/anthropic-model.js";
import { type LocalModelServer, startLocalModelServer } from "../model/__fixtures__/local-model-server.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import { ChatLoop } from "./chat-loop.js";

const FAILURE_TEXT = "upstream overloaded, shed load";

interface Provider {
  readonly name: string;
  readonly model: (url: string) => ModelAdapter;
  readonly plugins: ReadonlyArray<PipelinePlugin>;
  readonly busyStatus: number;
  readonly busyBody: unknown;
  readonly answer: (response: ServerResponse, text: string) => void;
}

const providers: ReadonlyArray<Provider> = [
  {
    name: "OpenAI-compatible, streamed",
    model: (url) => openAICompatibleModel({ model: "gpt-4o-mini", baseURL: url, env: {} }),
    plugins: [],
    busyStatus: 503,
    busyBody: { error: { message: FAILURE_TEXT, type: "server_error", code: "server_error" } },
    answer: (response, text) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: "stop" }] })}\n\n`);
      response.end("data: [DONE]\n\n");
    },
  },
  {
    name: "Anthropic Messages",
    model: (url) => anthropicModel({ model: "claude-haiku-4-5", baseURL: url, apiKey: "k", stream: false, env: {} }),
    plugins: [new AnthropicMessagesRendererPlugin()],
    busyStatus: 529,
    busyBody: { type: "error", error: { type: "overloaded_error", message: FAILURE_TEXT } },
    answer: (response, text) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: "msg_1", type: "message", role: "assistant", model: "claude-haiku-4-5", content: [{ type: "text", text }], stop_reason: "end_turn", usage: { input_tokens: 5, output_tokens: 1 } }));
    },
  },
];

let server: LocalModelServer;
beforeEach(async () => {
  server = await startLocalModelServer();
});
afterEach(async () => {
  await server.close();
});

function busy(provider: Provider, status = provider.busyStatus, headers: Record<string, string> = {}) {
  return (response: ServerResponse) => {
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(provider.busyBody));
  };
}

/** Fails the first `failures` requests with `fail`, then answers "Back.". */
function failThenAnswer(provider: Provider, failures: number, fail: (response: ServerResponse) => void) {
  server.answer((response, request) => {
    if (server.requests.indexOf(request) < failures) fail(response);
    else provider.answer(response, "Back.");
  });
}

function loopFor(provider: Provider, waits: number[]) {
  const { store } = tempStore();
  const loop = new ChatLoop({
    model: provider.model(server.url),
    store,
    plugins: provider.plugins,
    retryDelayMs: 1000,
    random: () => 0,
    sleep: async (ms) => void waits.push(ms),
  });
  return { loop, store };
}

function expectNoFailureText(body: unknown) {
  const sent = JSON.stringify(body);
  expect(sent).not.toContain(FAILURE_TEXT);
  expect(sent).not.toContain("LLM_ERROR");
  expect(sent).not.toContain("Continue");
}

describe.for(providers)("ChatLoop over HTTP, $name: failures", (provider) => {
  it("a failure, then success on the retry: the log holds [user, assistant], and the retry sends the same request", async () => {
    failThenAnswer(provider, 1, busy(provider));
    const waits: number[] = [];
    const { loop, store } = loopFor(provider, waits);
    const result = await loop.send({ conversationId: "c1", userInput: "Hello" });
    expect(result).toMatchObject({ status: "completed", text: "Back.", turns: 1 });
    expect((await store.load("c1")).messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "USER_INPUT\nHello"],
      ["assistant", "Back."],
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
    expectNoFailureText(server.requests[1]!.body);
    expect(waits).toEqual([1000]);
  });

  test.for([
    { name: "429, Retry-After in seconds", status: 429, headers: () => ({ "retry-after": "3" }), range: [3000, 3000] },
    { name: "503, Retry-After as an HTTP date", status: 503, headers: () => ({ "retry-after": new Date(Date.now() + 5000).toUTCString() }), range: [3000, 5000] },
  ])("the wait before the retry is the one the provider asked for: $name", async ({ status, headers, range }) => {
    server.answer((response, request) => {
      if (server.requests.indexOf(request) === 0) busy(provider, status, headers())(response);
      else provider.answer(response, "Back.");
    });
    const waits: number[] = [];
    const { loop, store } = loopFor(provider, waits);
    expect(await loop.send({ conversationId: "c1", userInput: "Hello" })).toMatchObject({ status: "completed", text: "Back." });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(range[0]!);
    expect(waits[0]).toBeLessThanOrEqual(range[1]!);
    expect((await store.load("c1")).messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("a failure that outlasts the retries is persisted once for the call, and the next turn's request carries none of it", async () => {
    failThenAnswer(provider, 3, busy(provider));
    const waits: number[] = [];
    const { loop, store } = loopFor(provider, waits);
    const failed = await loop.send({ conversationId: "c1", userInput: "Hello" });
    expect(failed).toMatchObject({ status: "failed", error: { code: "LLM_HTTP_ERROR", status: provider.busyStatus, retryable: true } });
    expect(server.requests).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
    expect((await store.load("c1")).messages.map((message) => message.partType ?? message.role)).toEqual(["user", "error"]);

    const resumed = await loop.send({ conversationId: "c1", userInput: "continue" });
    expect(resumed).toMatchObject({ status: "completed", text: "Back." });
    expect(server.requests).toHaveLength(4);
    expectNoFailureText(server.requests[3]!.body);
    expect(JSON.stringify(server.requests[3]!.body)).toContain("USER_INPUT\\nHello");
    expect((await store.load("c1")).messages.map((message) => message.partType ?? message.role)).toEqual(["user", "error", "user", "assistant"]);
  });
});
