import { createPipeline, type OpenAIChatRequest, PluginOptionsError, type ToolDefinitionInput } from "@ctxpipe/core";
import { toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { json, type LocalModelServer, silence, sse, sseText, startLocalModelServer } from "./__fixtures__/local-model-server.js";
import { ModelError } from "./model-error.js";
import { openAICompatibleModel } from "./openai-compatible-model.js";

const tools: ToolDefinitionInput[] = [
  { name: "read_file", description: "Reads a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];

/** What the pipeline renders for a tool loop followed by a new question: the adapter must send exactly this. */
async function renderedRequest(): Promise<OpenAIChatRequest> {
  const items = [...toolLoopFixture(), { id: "u2", type: "user" as const, text: "Et en français ? 😀" }];
  const result = await createPipeline().build(items, { renderer: "openai", system: "Be brief.", tools, tokenizer: wordTokenizer, model: "from-the-build" });
  return result.request;
}

/** A streamed chunk of choice 0. */
const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});

/** Text, two parallel tool calls whose argument pieces interleave, the finish reason, then usage and [DONE]. */
const parallelToolStream = [
  chunk({ role: "assistant", content: "" }),
  chunk({ content: "Les deux fichiers " }),
  chunk({ content: "diffèrent 😀" }),
  chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read_file", arguments: "" } }] }),
  chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":"b.json"}' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"a.json"}' } }] }),
  chunk({}, "tool_calls"),
  { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 } },
].map((data) => ({ data }));

let server: LocalModelServer;
beforeAll(async () => {
  server = await startLocalModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const model = (options: Partial<Parameters<typeof openAICompatibleModel>[0]> = {}) =>
  openAICompatibleModel({ model: "gpt-test", baseURL: `${server.url}/v1`, env: {}, ...options });

describe("openAICompatibleModel: what it sends and reads", () => {
  test("POSTs the rendered messages and tools to {baseURL}/chat/completions and reads a JSON answer", async () => {
    const request = await renderedRequest();
    server.answer(
      json(200, {
        id: "chatcmpl-1",
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.json"}' } }] },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 80, completion_tokens: 12, total_tokens: 92 },
      }),
    );
    const pieces: string[] = [];
    const adapter = model({ apiKey: "sk-test", stream: false, maxTokens: 256, temperature: 0, body: { top_p: 0.5 }, headers: { "X-Team": "search" } });
    const reply = await adapter.complete({ request, onText: (delta) => pieces.push(delta) });

    expect(reply).toEqual({ text: "", toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.json"}' }], stopReason: "tool_calls", usage: { inputTokens: 80, outputTokens: 12 } });
    expect(pieces).toEqual([]);
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(sent!.headers).toMatchObject({ authorization: "Bearer sk-test", "content-type": "application/json", accept: "application/json", "x-team": "search" });
    // The adapter's model replaces the build's; nothing else of the request is touched.
    expect(sent!.body).toEqual({ top_p: 0.5, messages: request.messages, tools: request.tools, model: "gpt-test", max_tokens: 256, temperature: 0 });
    expect(adapter).toMatchObject({ name: "openai-compatible (gpt-test)", renderer: "openai", model: "gpt-test" });
  });

  test("a JSON answer's text reaches onText once, whole", async () => {
    server.answer(json(200, { choices: [{ message: { role: "assistant", content: "Bonjour." }, finish_reason: "stop" }] }));
    const pieces: string[] = [];
    const reply = await model({ stream: false }).complete({ request: await renderedRequest(), onText: (delta) => pieces.push(delta) });
    expect(reply).toEqual({ text: "Bonjour.", toolCalls: [], stopReason: "stop" });
    expect(pieces).toEqual(["Bonjour."]);
  });

  test.for([
    { name: "whole", size: undefined, lineEnd: "\n" },
    { name: "cut every 3 bytes (inside lines and characters), CRLF line ends", size: 3, lineEnd: "\r\n" },
    { name: "cut every 7 bytes, CR line ends", size: 7, lineEnd: "\r" },
  ])("streams ($name): text deltas to onText, parallel tool calls from indexed deltas, usage", async ({ size, lineEnd }) => {
    const request = await renderedRequest();
    const text = `: keep-alive${lineEnd}${lineEnd}${sseText([...parallelToolStream, { data: "[DONE]" }], lineEnd)}`;
    server.answer(sse(text, { ...(size === undefined ? {} : { size }) }));
    const pieces: string[] = [];
    const reply = await model({ apiKey: "sk-test" }).complete({ request, onText: (delta) => pieces.push(delta) });

    expect(reply).toEqual({
      text: "Les deux fichiers diffèrent 😀",
      toolCalls: [
        { id: "call_a", name: "read_file", arguments: '{"path":"a.json"}' },
        { id: "call_b", name: "read_file", arguments: '{"path":"b.json"}' },
      ],
      stopReason: "tool_calls",
      usage: { inputTokens: 120, outputTokens: 30 },
    });
    expect(pieces).toEqual(["Les deux fichiers ", "diffèrent 😀"]);
    const [sent] = server.requests;
    expect(sent!.headers).toMatchObject({ accept: "text/event-stream" });
    expect(sent!.body).toEqual({ stream_options: { include_usage: true }, messages: request.messages, tools: request.tools, model: "gpt-test", stream: true });
  });

  test("a server that does not send [DONE] is fine once it has said why the model stopped", async () => {
    server.answer(sse(sseText([{ data: chunk({ content: "ok" }) }, { data: chunk({}, "stop") }])));
    expect(await model().complete({ request: await renderedRequest() })).toEqual({ text: "ok", toolCalls: [], stopReason: "stop" });
  });

  test("a server that ignores stream: true and answers JSON is read as JSON", async () => {
    server.answer(json(200, { choices: [{ message: { content: "plain" }, finish_reason: "stop" }] }));
    expect(await model().complete({ request: await renderedRequest() })).toMatchObject({ text: "plain" });
  });

  test("the environment gives the base URL and the key; options win over it; no key means no Authorization header", async () => {
    server.answer(json(200, { choices: [{ message: { content: "ok" }, finish_reason: "stop" }] }));
    const request = await renderedRequest();
    const env = { OPENAI_BASE_URL: `${server.url}/env/v1/`, OPENAI_API_KEY: "sk-env" };
    await openAICompatibleModel({ model: "m", env, stream: false }).complete({ request });
    await openAICompatibleModel({ model: "m", env, apiKey: "sk-option", baseURL: `${server.url}/option`, stream: false }).complete({ request });
    await openAICompatibleModel({ model: "m", env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: " " }, stream: false }).complete({ request });
    expect(server.requests.map((sent) => [sent.path, sent.headers.authorization])).toEqual([
      ["/env/v1/chat/completions", "Bearer sk-env"],
      ["/option/chat/completions", "Bearer sk-option"],
      ["/chat/completions", undefined],
    ]);
  });

  test("bad options are a PluginOptionsError naming the field", () => {
    expect(() => openAICompatibleModel({ env: {} } as never)).toThrow(PluginOptionsError);
    expect(() => openAICompatibleModel({ env: {} } as never)).toThrow(/→ at model/);
    expect(() => openAICompatibleModel({ model: "m", env: {}, timeoutMs: 0 })).toThrow(/→ at timeoutMs/);
    expect(() => openAICompatibleModel({ model: "m", env: {}, baseURL: "ftp://example.test" })).toThrow(/"ftp:\/\/example.test" is not an http\(s\) URL\n {2}→ at baseURL/);
    expect(() => openAICompatibleModel({ model: "m", env: { OPENAI_BASE_URL: "localhost:8080" } })).toThrow(/→ at baseURL \(from OPENAI_BASE_URL\)/);
  });
});

describe("openAICompatibleModel: failures are ModelErrors", () => {
  test.for([
    {
      name: "401 with an OpenAI error body",
      status: 401,
      body: { error: { message: "Incorrect API key provided: sk-test.", type: "invalid_request_error", param: null, code: "invalid_api_key" } },
      expected: { status: 401, providerCode: "invalid_api_key", retryable: false, message: "openai-compatible (gpt-test): HTTP 401 Unauthorized: Incorrect API key provided: sk-test." },
    },
    {
      name: "429, retryable",
      status: 429,
      body: { error: { message: "Rate limit reached for gpt-test.", type: "requests", param: null, code: "rate_limit_exceeded" } },
      expected: { status: 429, providerCode: "rate_limit_exceeded", retryable: true, message: "openai-compatible (gpt-test): HTTP 429 Too Many Requests: Rate limit reached for gpt-test." },
    },
    {
      name: "400 with a code-less error: the type stands in",
      status: 400,
      body: { error: { message: "Invalid 'messages': empty array.", type: "invalid_request_error", code: null } },
      expected: { status: 400, providerCode: "invalid_request_error", retryable: false },
    },
    {
      name: "404 from a server that answers {detail}",
      status: 404,
      body: { detail: "Not Found" },
      expected: { status: 404, retryable: false, message: "openai-compatible (gpt-test): HTTP 404 Not Found: Not Found" },
    },
    {
      name: "503 with a plain-text body",
      status: 503,
      body: "upstream connect error",
      expected: { status: 503, retryable: true, message: "openai-compatible (gpt-test): HTTP 503 Service Unavailable: upstream connect error" },
    },
  ])("an HTTP error status: $name", async ({ status, body, expected }) => {
    server.answer(
      typeof body === "string"
        ? (response) => {
            response.writeHead(status, { "content-type": "text/plain" }).end(body);
          }
        : json(status, body),
    );
    const error = await model().complete({ request: await renderedRequest() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_HTTP_ERROR", model: "openai-compatible (gpt-test)", ...expected });
    if (!("providerCode" in expected)) expect((error as ModelError).providerCode).toBeUndefined();
  });

  test.for([
    { name: "a JSON answer that is not JSON", stream: false, answer: "<html>", expected: /the answer is not JSON: "<html>"/ },
    { name: "a JSON answer without choices", stream: false, answer: { object: "chat.completion", choices: [] }, expected: /not a Chat Completions answer:\n✖ .*\n {2}→ at choices/ },
    { name: "a tool call without a name", stream: false, answer: { choices: [{ message: { tool_calls: [{ id: "c", function: { arguments: "{}" } }] } }] }, expected: /→ at choices\[0\]\.message\.tool_calls\[0\]\.function\.name/ },
    { name: "a stream event that is not JSON", stream: true, answer: sseText([{ data: chunk({ content: "a" }) }, { data: "{oops" }]), expected: /a stream event is not JSON: "\{oops"/ },
    { name: "a stream event of the wrong shape", stream: true, answer: sseText([{ data: { choices: [{ delta: { content: 7 } }] } }]), expected: /not a Chat Completions chunk:\n✖ .*\n {2}→ at choices\[0\]\.delta\.content/ },
    {
      name: "a streamed tool call that never gets a name",
      stream: true,
      answer: sseText([{ data: chunk({ tool_calls: [{ index: 0, id: "call_x", function: { arguments: "{}" } }] }) }, { data: chunk({}, "tool_calls") }, { data: "[DONE]" }]),
      expected: /streamed tool call 0 \(call_x\) has no name/,
    },
  ])("LLM_BAD_RESPONSE: $name", async ({ stream, answer, expected }) => {
    server.answer(
      typeof answer === "string" && stream
        ? sse(answer)
        : typeof answer === "string"
          ? (response) => {
              response.writeHead(200, { "content-type": "application/json" }).end(answer);
            }
          : json(200, answer),
    );
    const error = await model({ stream }).complete({ request: await renderedRequest() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_BAD_RESPONSE", retryable: false });
    expect((error as Error).message).toMatch(expected);
  });

  test("an error event in the middle of the stream is the provider's error", async () => {
    server.answer(sse(sseText([{ data: chunk({ content: "Half an ans" }) }, { data: { error: { message: "The server had an error while processing your request.", type: "server_error" } } }])));
    const error = await model().complete({ request: await renderedRequest() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "LLM_HTTP_ERROR",
      providerCode: "server_error",
      retryable: true,
      message: "openai-compatible (gpt-test): the stream reported server_error: The server had an error while processing your request.",
    });
  });

  test("a 200 answer that holds only an error is the provider's error too", async () => {
    server.answer(json(200, { error: { message: "model 'gpt-test' not found", type: "invalid_request_error", code: "model_not_found" } }));
    await expect(model({ stream: false }).complete({ request: await renderedRequest() })).rejects.toMatchObject({
      code: "LLM_HTTP_ERROR",
      providerCode: "model_not_found",
      retryable: false,
      message: "openai-compatible (gpt-test): the answer reported model_not_found: model 'gpt-test' not found",
    });
  });

  test("a connection closed mid-stream is a retryable LLM_NETWORK_ERROR", async () => {
    server.answer(sse(sseText(parallelToolStream.slice(0, 3)), { ending: "destroy" }));
    const pieces: string[] = [];
    const error = await model().complete({ request: await renderedRequest(), onText: (delta) => pieces.push(delta) }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "LLM_NETWORK_ERROR", retryable: true });
    expect((error as Error).message).toMatch(/^openai-compatible \(gpt-test\): (the connection broke while the answer was read|the stream ended before \[DONE\])/);
    expect(pieces).toEqual(["Les deux fichiers ", "diffèrent 😀"]);
  });

  test("a stream that ends cleanly before [DONE] and before any finish reason is incomplete", async () => {
    server.answer(sse(sseText(parallelToolStream.slice(0, 3))));
    await expect(model().complete({ request: await renderedRequest() })).rejects.toMatchObject({
      code: "LLM_NETWORK_ERROR",
      retryable: true,
      message: "openai-compatible (gpt-test): the stream ended before [DONE]: the answer is incomplete",
    });
  });

  test("an endpoint nobody listens on is a retryable LLM_NETWORK_ERROR", async () => {
    const closed = await startLocalModelServer();
    await closed.close();
    const error = await openAICompatibleModel({ model: "m", baseURL: closed.url, env: {} })
      .complete({ request: await renderedRequest() })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_NETWORK_ERROR", retryable: true });
    expect((error as Error).message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+\/chat\/completions: fetch failed: .*ECONNREFUSED/);
  });

  test("no answer within timeoutMs is LLM_TIMEOUT, and the request is aborted", async () => {
    server.answer(silence);
    await expect(model({ timeoutMs: 50 }).complete({ request: await renderedRequest() })).rejects.toMatchObject({
      code: "LLM_TIMEOUT",
      retryable: true,
      message: "openai-compatible (gpt-test): no complete answer within 50 ms",
    });
    await server.requests[0]!.clientGone;
  });

  test("the timeout covers the whole answer: a stream that stops moving times out too", async () => {
    server.answer(sse(sseText(parallelToolStream.slice(0, 2)), { ending: "hang" }));
    const pieces: string[] = [];
    await expect(model({ timeoutMs: 1000 }).complete({ request: await renderedRequest(), onText: (delta) => pieces.push(delta) })).rejects.toMatchObject({ code: "LLM_TIMEOUT" });
    expect(pieces).toEqual(["Les deux fichiers "]);
    await server.requests[0]!.clientGone;
  });

  test("the caller's abort mid-stream is LLM_ABORTED, and the HTTP request really ends", async () => {
    server.answer(sse(sseText(parallelToolStream.slice(0, 2)), { ending: "hang" }));
    const controller = new AbortController();
    const call = model().complete({ request: await renderedRequest(), signal: controller.signal, onText: () => controller.abort(new Error("user pressed stop")) });
    await expect(call).rejects.toMatchObject({ name: "ModelError", code: "LLM_ABORTED", retryable: false, message: "openai-compatible (gpt-test): the call was aborted" });
    await expect(call.catch((error: Error) => (error.cause as Error).message)).resolves.toBe("user pressed stop");
    await server.requests[0]!.clientGone;
  });

  test("an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(model().complete({ request: await renderedRequest(), signal: controller.signal })).rejects.toMatchObject({ code: "LLM_ABORTED" });
    expect(server.requests).toEqual([]);
  });

  test("an error thrown by the caller's onText comes back unchanged, and the request is ended", async () => {
    server.answer(sse(sseText(parallelToolStream.slice(0, 2)), { ending: "hang" }));
    const mine = new Error("the UI is gone");
    await expect(
      model().complete({
        request: await renderedRequest(),
        onText: () => {
          throw mine;
        },
      }),
    ).rejects.toBe(mine);
    await server.requests[0]!.clientGone;
  });
});
