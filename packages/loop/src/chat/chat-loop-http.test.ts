// The loop against real HTTP: a local server that speaks the OpenAI Chat Completions and Anthropic
// Messages protocols, so the whole path (build → adapter → HTTP → reply → log) runs as in production.
import type { ServerResponse } from "node:http";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { anthropicModel } from "../model/anthropic-model.js";
import { type LocalModelServer, startLocalModelServer } from "../model/__fixtures__/local-model-server.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { ChatLoop } from "./chat-loop.js";

const clock: LoopTool = { name: "get_time", description: "The current time.", run: () => "12:00" };

let server: LocalModelServer;
beforeEach(async () => {
  server = await startLocalModelServer();
});
afterEach(async () => {
  await server.close();
});

function sse(response: ServerResponse, events: ReadonlyArray<unknown>) {
  response.writeHead(200, { "content-type": "text/event-stream" });
  for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
  response.end("data: [DONE]\n\n");
}

describe("ChatLoop over HTTP", () => {
  it("an OpenAI-compatible endpoint: streamed tool call, tool result, streamed answer, all persisted", async () => {
    server.answer((response, request) => {
      if (server.requests.indexOf(request) === 0) {
        sse(response, [
          { choices: [{ index: 0, delta: { role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_time", arguments: "" } }] } }] },
          { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "{}" } }] }, finish_reason: "tool_calls" }] },
        ]);
      } else {
        sse(response, [{ choices: [{ index: 0, delta: { content: "It is " } }] }, { choices: [{ index: 0, delta: { content: "noon." }, finish_reason: "stop" }] }]);
      }
    });
    const { store } = tempStore();
    const loop = new ChatLoop({ model: openAICompatibleModel({ model: "gpt-4o-mini", baseURL: `${server.url}/v1`, env: {} }), store, tools: [clock] });
    const streamed: string[] = [];
    const result = await loop.send({ conversationId: "c1", userInput: "What time is it?", onText: (delta) => streamed.push(delta) });
    expect(result).toMatchObject({ status: "completed", text: "It is noon.", turns: 2 });
    expect(streamed.join("")).toBe("It is noon.");
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    const second = server.requests[1]!.body as { model: string; messages: Array<{ role: string; content?: unknown; tool_call_id?: string }>; tools: unknown[] };
    expect(second.model).toBe("gpt-4o-mini");
    expect(second.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second.messages[3]).toEqual({ role: "tool", tool_call_id: "call_1", content: "12:00" });
    expect((await store.load("c1")).messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("the Anthropic Messages API: the pipeline renders for Anthropic, the log keeps one shape", async () => {
    server.answer((response, request) => {
      response.writeHead(200, { "content-type": "application/json" });
      const first = server.requests.indexOf(request) === 0;
      response.end(
        JSON.stringify({
          id: first ? "msg_1" : "msg_2",
          type: "message",
          role: "assistant",
          model: "claude-haiku-4-5",
          content: first ? [{ type: "tool_use", id: "toolu_1", name: "get_time", input: {} }] : [{ type: "text", text: "Noon." }],
          stop_reason: first ? "tool_use" : "end_turn",
          usage: { input_tokens: 50, output_tokens: 5 },
        }),
      );
    });
    const { store } = tempStore();
    const loop = new ChatLoop({
      model: anthropicModel({ model: "claude-haiku-4-5", baseURL: server.url, apiKey: "test-key", stream: false, env: {} }),
      store,
      tools: [clock],
      plugins: [new AnthropicMessagesRendererPlugin()],
    });
    const result = await loop.send({ conversationId: "c1", userInput: "Time?", agent: { id: "a1", name: "Clock", role: "Timekeeper" } });
    expect(result).toMatchObject({ status: "completed", text: "Noon.", usage: { inputTokens: 100, outputTokens: 10 } });
    const [first, second] = server.requests;
    expect(first!.path).toBe("/v1/messages");
    expect(first!.headers["x-api-key"]).toBe("test-key");
    const body = second!.body as { system: unknown; messages: Array<{ role: string; content: Array<{ type: string; tool_use_id?: string }> }> };
    expect(JSON.stringify(body.system)).toContain("**Name:** Clock");
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(body.messages[2]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    const stored = (await store.load("c1")).messages;
    expect(stored[1]!.tool_calls).toEqual([{ id: "toolu_1", type: "function", function: { name: "get_time", arguments: "{}" } }]);
    expect(stored[1]!.agentId).toBe("a1");
  });

  it("an HTTP error is persisted, and 'continue' after the endpoint recovers carries on", async () => {
    let failing = true;
    server.answer((response) => {
      if (failing) {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "context_length_exceeded: too long", type: "invalid_request_error", code: "context_length_exceeded" } }));
        return;
      }
      sse(response, [{ choices: [{ index: 0, delta: { content: "Back." }, finish_reason: "stop" }] }]);
    });
    const { store } = tempStore();
    const loop = new ChatLoop({ model: openAICompatibleModel({ model: "gpt-4o-mini", baseURL: server.url, env: {} }), store, retryDelayMs: 0 });
    const failed = await loop.send({ conversationId: "c1", userInput: "Hello" });
    expect(failed).toMatchObject({ status: "failed", error: { code: "LLM_HTTP_ERROR", status: 400 } });
    failing = false;
    const resumed = await loop.send({ conversationId: "c1", userInput: "continue" });
    expect(resumed).toMatchObject({ status: "completed", text: "Back." });
    const sent = JSON.stringify((server.requests[1]!.body as { messages: unknown }).messages);
    // The failure is in the log, not in the request: models imitate replayed error text.
    expect(sent).not.toContain("context_length_exceeded");
    expect(sent).toContain("USER_INPUT\\nHello");
    expect((await store.load("c1")).messages.map((message) => message.partType ?? message.role)).toEqual(["user", "error", "user", "assistant"]);
  });
});
