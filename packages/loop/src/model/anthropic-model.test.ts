import { createPipeline, PluginOptionsError, type ToolDefinitionInput } from "@ctxpipe/core";
import { toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { type AnthropicMessagesRequest, AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { json, type LocalModelServer, silence, sse, sseText, startLocalModelServer } from "./__fixtures__/local-model-server.js";
import { anthropicModel } from "./anthropic-model.js";
import { ModelError } from "./model-error.js";

const tools: ToolDefinitionInput[] = [
  { name: "read_file", description: "Reads a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "list_files", parameters: { type: "object", properties: {} } },
];

/** What the Anthropic renderer produces for a tool loop and a new question: the adapter must send exactly this. */
async function renderedRequest(): Promise<AnthropicMessagesRequest> {
  const items = [...toolLoopFixture(), { id: "u2", type: "user" as const, text: "Et en français ? 😀" }];
  const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin()] });
  const result = await pipeline.build(items, { renderer: "anthropic", system: "Be brief.", tools, tokenizer: wordTokenizer, maxTokens: 20_000, reserveOutputTokens: 1000 });
  return result.request;
}

const event = (data: { type: string; [key: string]: unknown }) => ({ event: data.type, data });
const textDelta = (index: number, text: string) => event({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
const jsonDelta = (index: number, partial_json: string) => event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });

const messageStart = event({
  type: "message_start",
  message: {
    id: "msg_01",
    type: "message",
    role: "assistant",
    content: [],
    model: "claude-test",
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens: 1 },
  },
});

/** Thinking (skipped), text, a tool call whose input arrives in pieces, and one without parameters. */
const toolUseStream = [
  messageStart,
  event({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } }),
  event({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Both files, then." } }),
  event({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQBCgIYAhIM" } }),
  event({ type: "content_block_stop", index: 0 }),
  event({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }),
  event({ type: "ping" }),
  textDelta(1, "Je lis "),
  textDelta(1, "les fichiers 😀"),
  event({ type: "content_block_stop", index: 1 }),
  event({ type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_01", name: "read_file", input: {} } }),
  jsonDelta(2, ""),
  jsonDelta(2, '{"path": "a.'),
  jsonDelta(2, 'json"}'),
  event({ type: "content_block_stop", index: 2 }),
  event({ type: "content_block_start", index: 3, content_block: { type: "tool_use", id: "toolu_02", name: "list_files", input: {} } }),
  event({ type: "content_block_stop", index: 3 }),
  event({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 42 } }),
  event({ type: "message_stop" }),
];

const toolUseReply = {
  text: "Je lis les fichiers 😀",
  toolCalls: [
    { id: "toolu_01", name: "read_file", arguments: '{"path": "a.json"}' },
    { id: "toolu_02", name: "list_files", arguments: "{}" },
  ],
  stopReason: "tool_use",
  usage: { inputTokens: 125, outputTokens: 42 },
};

let server: LocalModelServer;
beforeAll(async () => {
  server = await startLocalModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const model = (options: Partial<Parameters<typeof anthropicModel>[0]> = {}) => anthropicModel({ model: "claude-test", baseURL: server.url, env: {}, ...options });

describe("anthropicModel: what it sends and reads", () => {
  test("POSTs the rendered request to {baseURL}/v1/messages with the key and version headers, and reads a JSON answer", async () => {
    const request = await renderedRequest();
    server.answer(
      json(200, {
        id: "msg_01",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [
          { type: "thinking", thinking: "Read a.json.", signature: "sig" },
          { type: "text", text: "Je lis a.json." },
          { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "a.json" } },
        ],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 10, cache_creation_input_tokens: 200, cache_read_input_tokens: 0, output_tokens: 20 },
      }),
    );
    const pieces: string[] = [];
    const adapter = model({ apiKey: "sk-ant-test", stream: false, temperature: 0.2, body: { top_k: 5 }, headers: { "anthropic-beta": "token-efficient-tools-2025-02-19" } });
    const reply = await adapter.complete({ request, onText: (delta) => pieces.push(delta) });

    expect(reply).toEqual({ text: "Je lis a.json.", toolCalls: [{ id: "toolu_01", name: "read_file", arguments: '{"path":"a.json"}' }], stopReason: "tool_use", usage: { inputTokens: 210, outputTokens: 20 } });
    expect(pieces).toEqual(["Je lis a.json."]);
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/v1/messages" });
    expect(sent!.headers).toMatchObject({
      "x-api-key": "sk-ant-test",
      "anthropic-version": "2023-06-01",
      "anthropic-beta": "token-efficient-tools-2025-02-19",
      "content-type": "application/json",
      accept: "application/json",
    });
    expect(sent!.headers.authorization).toBeUndefined();
    // max_tokens is the renderer's (the build's reserveOutputTokens).
    expect(request.max_tokens).toBe(1000);
    expect(sent!.body).toEqual({ top_k: 5, max_tokens: 1000, system: "Be brief.", messages: request.messages, tools: request.tools, model: "claude-test", temperature: 0.2 });
    expect(adapter).toMatchObject({ name: "anthropic (claude-test)", renderer: "anthropic", model: "claude-test" });
  });

  test.for([
    { name: "whole", size: undefined, lineEnd: "\n" },
    { name: "cut every 3 bytes (inside lines and characters), CRLF line ends", size: 3, lineEnd: "\r\n" },
    { name: "cut every 11 bytes", size: 11, lineEnd: "\n" },
  ])("streams ($name): text deltas to onText, tool_use input assembled from input_json_delta, usage", async ({ size, lineEnd }) => {
    const request = await renderedRequest();
    server.answer(sse(sseText(toolUseStream, lineEnd), { ...(size === undefined ? {} : { size }) }));
    const pieces: string[] = [];
    const reply = await model({ maxTokens: 333 }).complete({ request, onText: (delta) => pieces.push(delta) });
    expect(reply).toEqual(toolUseReply);
    expect(pieces).toEqual(["Je lis ", "les fichiers 😀"]);
    const [sent] = server.requests;
    expect(sent!.headers).toMatchObject({ accept: "text/event-stream" });
    expect(sent!.headers["x-api-key"]).toBeUndefined();
    expect(sent!.body).toEqual({ max_tokens: 333, system: "Be brief.", messages: request.messages, tools: request.tools, model: "claude-test", stream: true });
  });

  test("a request without max_tokens gets 4096, which the API requires", async () => {
    server.answer(json(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }));
    const request = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }] } as AnthropicMessagesRequest;
    await model({ stream: false }).complete({ request });
    expect(server.requests[0]!.body).toEqual({ messages: request.messages, model: "claude-test", max_tokens: 4096 });
  });

  test("the environment gives the base URL and the key; options win over it", async () => {
    server.answer(json(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }));
    const request = await renderedRequest();
    const env = { ANTHROPIC_BASE_URL: `${server.url}/proxy/`, ANTHROPIC_API_KEY: "sk-ant-env" };
    await anthropicModel({ model: "m", env, stream: false }).complete({ request });
    await anthropicModel({ model: "m", env, apiKey: "sk-ant-option", baseURL: server.url, anthropicVersion: "2099-01-01", stream: false }).complete({ request });
    expect(server.requests.map((sent) => [sent.path, sent.headers["x-api-key"], sent.headers["anthropic-version"]])).toEqual([
      ["/proxy/v1/messages", "sk-ant-env", "2023-06-01"],
      ["/v1/messages", "sk-ant-option", "2099-01-01"],
    ]);
  });

  test("bad options are a PluginOptionsError naming the field", () => {
    expect(() => anthropicModel({ model: "", env: {} })).toThrow(PluginOptionsError);
    expect(() => anthropicModel({ model: "m", env: {}, maxTokens: 1.5 })).toThrow(/→ at maxTokens/);
    expect(() => anthropicModel({ model: "m", env: {}, extra: true } as never)).toThrow(/Unrecognized key: "extra"/);
    expect(() => anthropicModel({ model: "m", env: { ANTHROPIC_BASE_URL: "api.anthropic.com" } })).toThrow(/→ at baseURL \(from ANTHROPIC_BASE_URL\)/);
  });
});

describe("anthropicModel: failures are ModelErrors", () => {
  test.for([
    {
      name: "529 overloaded, retryable",
      status: 529,
      statusText: "Overloaded",
      body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" }, request_id: "req_1" },
      expected: { status: 529, providerCode: "overloaded_error", retryable: true, message: "anthropic (claude-test): HTTP 529 Overloaded: Overloaded" },
    },
    {
      name: "400 invalid request",
      status: 400,
      statusText: undefined,
      body: { type: "error", error: { type: "invalid_request_error", message: "messages: at least one message is required" } },
      expected: { status: 400, providerCode: "invalid_request_error", retryable: false, message: "anthropic (claude-test): HTTP 400 Bad Request: messages: at least one message is required" },
    },
    {
      name: "401 authentication",
      status: 401,
      statusText: undefined,
      body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
      expected: { status: 401, providerCode: "authentication_error", retryable: false },
    },
  ])("an HTTP error status: $name", async ({ status, statusText, body, expected }) => {
    server.answer(json(status, body, statusText));
    const error = await model().complete({ request: await renderedRequest() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_HTTP_ERROR", model: "anthropic (claude-test)", ...expected });
  });

  test("an error event mid-stream (overloaded) is the provider's error, retryable; the text so far has been streamed", async () => {
    const overloaded = { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } };
    server.answer(sse(sseText([...toolUseStream.slice(0, 8), overloaded])));
    const pieces: string[] = [];
    const error = await model().complete({ request: await renderedRequest(), onText: (delta) => pieces.push(delta) }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: "ModelError",
      code: "LLM_HTTP_ERROR",
      providerCode: "overloaded_error",
      retryable: true,
      message: "anthropic (claude-test): the stream reported overloaded_error: Overloaded",
    });
    expect((error as ModelError).status).toBeUndefined();
    expect(pieces).toEqual(["Je lis "]);
  });

  test.for([
    { name: "a JSON answer without content", stream: false, answer: { type: "message", role: "assistant" }, expected: /not an Anthropic message:\n✖ .*\n {2}→ at content/ },
    { name: "a tool_use block without an id", stream: false, answer: { content: [{ type: "tool_use", name: "x", input: {} }] }, expected: /content\[0\] \(tool_use\) has no id/ },
    { name: "a stream event that is not JSON", stream: true, answer: sseText([messageStart]).concat("event: ping\ndata: {oops\n\n"), expected: /a stream event is not JSON: "\{oops"/ },
    { name: "a delta for a block that never started", stream: true, answer: sseText([messageStart, textDelta(4, "x")]), expected: /a delta for content block 4, which never started/ },
    {
      name: "a malformed content_block_start",
      stream: true,
      answer: sseText([messageStart, event({ type: "content_block_start", content_block: { type: "text" } })]),
      expected: /a content_block_start event is malformed:\n✖ .*\n {2}→ at index/,
    },
  ])("LLM_BAD_RESPONSE: $name", async ({ stream, answer, expected }) => {
    server.answer(typeof answer === "string" ? sse(answer) : json(200, answer));
    const error = await model({ stream }).complete({ request: await renderedRequest() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_BAD_RESPONSE" });
    expect((error as Error).message).toMatch(expected);
  });

  test("a stream that ends before message_stop is incomplete: a retryable LLM_NETWORK_ERROR", async () => {
    server.answer(sse(sseText(toolUseStream.slice(0, -1))));
    await expect(model().complete({ request: await renderedRequest() })).rejects.toMatchObject({
      code: "LLM_NETWORK_ERROR",
      retryable: true,
      message: "anthropic (claude-test): the stream ended before message_stop: the answer is incomplete",
    });
  });

  test("a connection closed mid-stream is a retryable LLM_NETWORK_ERROR", async () => {
    server.answer(sse(sseText(toolUseStream.slice(0, 9)), { ending: "destroy" }));
    await expect(model().complete({ request: await renderedRequest() })).rejects.toMatchObject({ name: "ModelError", code: "LLM_NETWORK_ERROR", retryable: true });
  });

  test("no answer within timeoutMs is LLM_TIMEOUT, and the request is aborted", async () => {
    server.answer(silence);
    await expect(model({ timeoutMs: 50 }).complete({ request: await renderedRequest() })).rejects.toMatchObject({
      code: "LLM_TIMEOUT",
      message: "anthropic (claude-test): no complete answer within 50 ms",
    });
    await server.requests[0]!.clientGone;
  });

  test("the caller's abort mid-stream is LLM_ABORTED, and the HTTP request really ends", async () => {
    server.answer(sse(sseText(toolUseStream.slice(0, 8)), { ending: "hang" }));
    const controller = new AbortController();
    const call = model().complete({ request: await renderedRequest(), signal: controller.signal, onText: () => controller.abort() });
    await expect(call).rejects.toMatchObject({ name: "ModelError", code: "LLM_ABORTED", message: "anthropic (claude-test): the call was aborted" });
    await server.requests[0]!.clientGone;
  });
});
