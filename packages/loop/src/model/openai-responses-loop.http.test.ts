// A ChatLoop over a store, talking to a local server that speaks the Responses API: the whole path
// (log → build → "openai-responses" request → HTTP stream → reply → log → next build) as in production.
// A reasoning model's reasoning item must come back on the next request, right before its call.
import type { ServerResponse } from "node:http";
import { checkRules } from "@ctxpipe/core";
import { OpenAIResponsesRendererPlugin, type OpenAIResponsesRequest, countOpenAIResponsesTokens, openAIResponsesRules } from "@ctxpipe/renderers";
import { getEncoding } from "@ctxpipe/tokenizers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { type LocalModelServer, startLocalModelServer } from "./__fixtures__/local-model-server.js";
import { openAIResponsesModel } from "./openai-responses-model.js";

const o200k = getEncoding("o200k_base");
const clock: LoopTool = { name: "get_time", description: "The current time.", parameters: { type: "object", properties: {} }, run: () => "12:00" };

const reasoning = {
  id: "rs_68a1f0c2d4e6",
  type: "reasoning",
  summary: [{ type: "summary_text", text: "The user wants the time: ask the clock." }],
  encrypted_content: "gAAAAABoofDC-encrypted-reasoning==",
};

let server: LocalModelServer;
beforeEach(async () => {
  server = await startLocalModelServer();
});
afterEach(async () => {
  await server.close();
});

/** Streams the items as the API does (added, deltas, done) and completes with the request's own count as input_tokens. */
function streamResponse(response: ServerResponse, request: OpenAIResponsesRequest, output: ReadonlyArray<Record<string, unknown>>) {
  response.writeHead(200, { "content-type": "text/event-stream" });
  const send = (data: Record<string, unknown>) => response.write(`event: ${data.type as string}\ndata: ${JSON.stringify(data)}\n\n`);
  send({ type: "response.created", response: { id: "resp_1", object: "response", status: "in_progress", output: [] } });
  output.forEach((item, index) => {
    if (item.type === "message") {
      send({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", content: [] } });
      const text = (item.content as Array<{ text: string }>)[0]!.text;
      for (const delta of [text.slice(0, 5), text.slice(5)]) send({ type: "response.output_text.delta", output_index: index, item_id: item.id, content_index: 0, delta });
    } else if (item.type === "function_call") {
      send({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", arguments: "" } });
      send({ type: "response.function_call_arguments.delta", output_index: index, item_id: item.id, delta: item.arguments });
    } else {
      // The reasoning item is announced without its encrypted content.
      send({ type: "response.output_item.added", output_index: index, item: { id: item.id, type: item.type, summary: [] } });
    }
    send({ type: "response.output_item.done", output_index: index, item });
  });
  const inputTokens = countOpenAIResponsesTokens(request, o200k);
  send({ type: "response.completed", response: { id: "resp_1", object: "response", status: "completed", output, usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: inputTokens + 20 } } });
  response.end();
}

function answerToolLoop() {
  server.answer((response, received) => {
    const request = received.body as OpenAIResponsesRequest;
    if (server.requests.indexOf(received) === 0) {
      streamResponse(response, request, [reasoning, { id: "fc_68a1f0c2d4e7", type: "function_call", status: "completed", call_id: "call_clock1", name: "get_time", arguments: "{}" }]);
    } else {
      streamResponse(response, request, [{ id: "msg_68a1f0c2d4e8", type: "message", status: "completed", role: "assistant", phase: "final_answer", content: [{ type: "output_text", text: "It is noon.", annotations: [] }] }]);
    }
  });
}

describe("ChatLoop with openAIResponsesModel over HTTP", () => {
  it.for([
    { name: "store: false, its encrypted content asked for", body: { store: false, include: ["reasoning.encrypted_content"] }, store: false },
    { name: "stored, the API's default", body: {}, store: undefined },
  ])("a two-step tool loop with reasoning ($name): the reasoning item goes back whole, right before its call", async ({ body, store: storeOption }) => {
    answerToolLoop();
    const { store } = tempStore();
    const loop = new ChatLoop({
      model: openAIResponsesModel({ model: "gpt-5-mini", baseURL: `${server.url}/v1`, env: {}, body }),
      store,
      tools: [clock],
      plugins: [new OpenAIResponsesRendererPlugin(storeOption === undefined ? {} : { store: storeOption })],
    });
    const streamed: string[] = [];
    const result = await loop.send({ conversationId: "c1", userInput: "What time is it?", onText: (delta) => streamed.push(delta) });

    expect(result).toMatchObject({ status: "completed", text: "It is noon.", turns: 2 });
    expect(streamed).toEqual(["It is", " noon."]);
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1/responses"]);
    const [first, second] = server.requests.map((request) => request.body as OpenAIResponsesRequest & Record<string, unknown>);
    expect(first).toMatchObject({ model: "gpt-5-mini", stream: true, prompt_cache_key: "c1", ...body });
    expect(second).toMatchObject({ model: "gpt-5-mini", stream: true, prompt_cache_key: "c1", ...body });
    expect(first!.tools).toEqual([{ type: "function", name: "get_time", description: "The current time.", parameters: { type: "object", properties: {} }, strict: false }]);
    // The first reply's reasoning item, as the done event gave it, right before its call; the output after.
    expect(second!.input.slice(-3)).toEqual([
      reasoning,
      { type: "function_call", id: "fc_68a1f0c2d4e7", call_id: "call_clock1", name: "get_time", arguments: "{}" },
      { type: "function_call_output", call_id: "call_clock1", output: "12:00" },
    ]);
    expect(second!.input.at(-4)).toEqual({ type: "message", role: "user", content: expect.stringContaining("What time is it?") });

    // The log keeps one shape; the reply's Responses items ride on the assistant message.
    const { messages } = await store.load("c1");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[1]!.openaiResponses).toEqual({
      sequence: [reasoning, { type: "function_call", call_id: "call_clock1", id: "fc_68a1f0c2d4e7", status: "completed" }],
    });
    // The usage each stream reported is the count of the request the server received; the build counted the same.
    const reported = countOpenAIResponsesTokens(second!, o200k);
    expect(result.usage).toEqual({ inputTokens: countOpenAIResponsesTokens(first!, o200k) + reported, outputTokens: 40 });
    expect(result.tokenEstimate).toMatchObject({ counted: reported, reported, offBy: 0, ratio: 1 });
  });

  it("store: false in the adapter's body with a renderer not told so: the send fails before any request, saying what to set", async () => {
    answerToolLoop();
    const { store } = tempStore();
    const loop = new ChatLoop({
      model: openAIResponsesModel({ model: "gpt-5-mini", baseURL: `${server.url}/v1`, env: {}, body: { store: false } }),
      store,
      tools: [clock],
      plugins: [new OpenAIResponsesRendererPlugin()],
    });
    await expect(loop.send({ conversationId: "c1", userInput: "What time is it?" })).rejects.toThrow(/OpenAIResponsesRendererPlugin\(\{ store: false \}\)/);
    expect(server.requests).toEqual([]);
  });

  it("store: false, a reasoning item answered without its encrypted content: the next request sends neither it nor the ids of its turn, and breaks no rule", async () => {
    const { encrypted_content: _none, ...plainReasoning } = reasoning;
    server.answer((response, received) => {
      const request = received.body as OpenAIResponsesRequest;
      if (server.requests.indexOf(received) === 0) {
        streamResponse(response, request, [plainReasoning, { id: "fc_68a1f0c2d4e7", type: "function_call", status: "completed", call_id: "call_clock1", name: "get_time", arguments: "{}" }]);
      } else {
        streamResponse(response, request, [{ id: "msg_68a1f0c2d4e8", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "It is noon.", annotations: [] }] }]);
      }
    });
    const { store } = tempStore();
    const loop = new ChatLoop({
      model: openAIResponsesModel({ model: "gpt-5-mini", baseURL: `${server.url}/v1`, env: {}, body: { store: false } }),
      store,
      tools: [clock],
      plugins: [new OpenAIResponsesRendererPlugin({ store: false })],
    });
    expect(await loop.send({ conversationId: "c1", userInput: "What time is it?" })).toMatchObject({ status: "completed", text: "It is noon." });
    const second = server.requests[1]!.body as OpenAIResponsesRequest;
    expect(second.store).toBe(false);
    expect(second.input.slice(-2)).toEqual([
      { type: "function_call", call_id: "call_clock1", name: "get_time", arguments: "{}" },
      { type: "function_call_output", call_id: "call_clock1", output: "12:00" },
    ]);
    expect(checkRules(openAIResponsesRules, second)).toEqual([]);
  });
});
