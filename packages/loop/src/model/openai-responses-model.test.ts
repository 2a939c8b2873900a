import { readFileSync } from "node:fs";
import { createPipeline, type ItemInput, PluginOptionsError } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { OPENAI_RESPONSES_MIN_OUTPUT_TOKENS, OpenAIResponsesRendererPlugin, type OpenAIResponsesRequest } from "@ctxpipe/renderers";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { json, type LocalModelServer, silence, sse, sseText, startLocalModelServer } from "./__fixtures__/local-model-server.js";
import { ModelError } from "./model-error.js";
import { openAIResponsesModel } from "./openai-responses-model.js";

/** A stream recorded in the API's shape: reasoning, a commentary message, two parallel calls whose argument deltas interleave. */
const recorded = readFileSync(new URL("./__fixtures__/responses-reasoning-parallel-calls.sse", import.meta.url), "utf8");
const recordedEvents = recorded
  .split("\n\n")
  .filter((block) => block !== "")
  .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)) as { type: string; output_index?: number; item?: Record<string, unknown>; response?: Record<string, unknown> });
const completed = recordedEvents.at(-1)!.response as { output: Array<Record<string, unknown>> };
const [reasoningItem, messageItem, callA, callB] = completed.output as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];

/** What the "openai-responses" renderer sends for a question after a finished tool loop. */
const request: OpenAIResponsesRequest = {
  model: "from-the-build",
  instructions: "Be brief.",
  input: [
    { type: "message", role: "user", content: "Compare a.json and b.json." },
    { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a.json"}' },
    { type: "function_call_output", call_id: "call_1", output: '{"a":1}' },
    { type: "message", role: "assistant", content: "a.json holds a=1." },
    { type: "message", role: "user", content: "Et en français ? 😀" },
  ],
  tools: [{ type: "function", name: "read_file", description: "Reads a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, strict: false }],
  max_output_tokens: 1024,
  prompt_cache_key: "c1",
};

/** The same, built by a renderer given store: false. */
const storeless: OpenAIResponsesRequest = { ...request, store: false };

/** The whole (non-streaming) response for the recorded stream's output. */
const wholeResponse = { ...(recordedEvents.at(-1)!.response as Record<string, unknown>) };

/** The message's content as the sequence keeps it: as it came, less its empty logprobs list. */
const messageContent = (messageItem.content as Array<Record<string, unknown>>).map(({ logprobs: _empty, ...part }) => part);
const expectedSequence = [reasoningItem, { type: "message", id: messageItem.id, phase: "commentary", status: "completed", content: messageContent }, { type: "function_call", call_id: callA.call_id, id: callA.id, status: "completed" }, { type: "function_call", call_id: callB.call_id, id: callB.id, status: "completed" }];

const expectedReply = {
  text: "Je lis les deux fichiers 😀 …",
  toolCalls: [
    { id: "call_A1b2C3d4E5f6G7h8", name: "read_file", arguments: '{"path":"a.json"}' },
    { id: "call_Z9y8X7w6V5u4T3s2", name: "read_file", arguments: '{"path":"b.json"}' },
  ],
  stopReason: "completed",
  // input_tokens already holds the 1152 cached tokens.
  usage: { inputTokens: 1480, outputTokens: 212 },
  extra: { openaiResponses: { sequence: expectedSequence } },
};

let server: LocalModelServer;
beforeAll(async () => {
  server = await startLocalModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const model = (options: Partial<Parameters<typeof openAIResponsesModel>[0]> = {}) => openAIResponsesModel({ model: "gpt-test", baseURL: `${server.url}/v1`, env: {}, ...options });

/** The recorded events, for a stream cut short or ending differently. */
const events = (from: number, to?: number) => recordedEvents.slice(from, to).map((data) => ({ event: data.type, data }));

describe("openAIResponsesModel: what it sends and reads", () => {
  test("POSTs the rendered request to {baseURL}/responses and reads a whole response", async () => {
    server.answer(json(200, wholeResponse));
    const pieces: string[] = [];
    const adapter = model({ apiKey: "sk-test", stream: false, maxOutputTokens: 256, temperature: 0, body: { include: ["reasoning.encrypted_content"], reasoning: { effort: "low" }, parallel_tool_calls: true }, headers: { "X-Team": "search" } });
    const reply = await adapter.complete({ request, onText: (delta) => pieces.push(delta) });

    expect(reply).toEqual(expectedReply);
    expect(pieces).toEqual(["Je lis les deux fichiers 😀 …"]);
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/v1/responses" });
    expect(sent!.headers).toMatchObject({ authorization: "Bearer sk-test", "content-type": "application/json", accept: "application/json", "x-team": "search" });
    // The adapter's model and max_output_tokens replace the build's; the rest of the request is sent as rendered.
    expect(sent!.body).toEqual({ include: ["reasoning.encrypted_content"], reasoning: { effort: "low" }, parallel_tool_calls: true, ...request, model: "gpt-test", max_output_tokens: 256, temperature: 0 });
    expect(adapter).toMatchObject({ name: "openai-responses (gpt-test)", renderer: "openai-responses", model: "gpt-test" });
  });

  test.for([
    { name: "whole", size: undefined, lineEnd: "\n" },
    { name: "every byte flushed on its own (cut inside lines and characters)", size: 1, lineEnd: "\n" },
    { name: "cut every 5 bytes, CRLF line ends", size: 5, lineEnd: "\r\n" },
  ])("streams ($name): text deltas to onText, interleaved parallel calls, reasoning from the done event, usage", async ({ size, lineEnd }) => {
    server.answer(sse(recorded.replaceAll("\n", lineEnd), { ...(size === undefined ? {} : { size }) }));
    const pieces: string[] = [];
    const reply = await model({ apiKey: "sk-test" }).complete({ request, onText: (delta) => pieces.push(delta) });

    expect(reply).toEqual(expectedReply);
    expect(pieces).toEqual(["Je lis les deux ", "fichiers 😀 …"]);
    // The added event announced the reasoning with a partial encrypted content (as OpenAI does); the stored one is the done event's.
    expect(recordedEvents[2]).toMatchObject({ type: "response.output_item.added", item: { id: reasoningItem.id, encrypted_content: "gAAAAABpJh1kQ2partial==" } });
    expect(reasoningItem.encrypted_content).toMatch(/^gAAAA.{100,}/);
    const [sent] = server.requests;
    expect(sent!.headers).toMatchObject({ accept: "text/event-stream" });
    expect(sent!.body).toEqual({ ...request, model: "gpt-test", stream: true });
  });

  test("a server that sends only whole items (no deltas) still streams their text once, and the final response fills in what it never finished", async () => {
    const onlyItems = recordedEvents.filter((event) => event.type === "response.output_item.done" && event.output_index !== 3 || event.type === "response.completed");
    server.answer(sse(sseText(onlyItems.map((data) => ({ data })))));
    const pieces: string[] = [];
    const reply = await model().complete({ request, onText: (delta) => pieces.push(delta) });
    expect(reply).toEqual(expectedReply);
    expect(pieces).toEqual(["Je lis les deux fichiers 😀 …"]);
  });

  test("two message items: their texts are joined by a line break, in onText too (as the importer of stored Responses items joins them)", async () => {
    const second = { id: "msg_2", type: "message", status: "completed", role: "assistant", phase: "final_answer", content: [{ type: "output_text", text: "Voilà.", annotations: [] }] };
    const stream = [
      { type: "response.output_item.added", output_index: 0, item: { ...messageItem, content: [] } },
      { type: "response.output_text.delta", output_index: 0, item_id: messageItem.id, content_index: 0, delta: "Je lis." },
      { type: "response.output_item.added", output_index: 1, item: { ...second, content: [] } },
      { type: "response.output_text.delta", output_index: 1, item_id: "msg_2", content_index: 0, delta: "Voilà." },
      { type: "response.completed", response: { status: "completed", output: [{ ...messageItem, content: [{ type: "output_text", text: "Je lis.", annotations: [] }] }, second] } },
    ];
    server.answer(sse(sseText(stream.map((data) => ({ data })))));
    const pieces: string[] = [];
    const reply = await model().complete({ request, onText: (delta) => pieces.push(delta) });
    expect(reply.text).toBe("Je lis.\nVoilà.");
    expect(pieces.join("")).toBe(reply.text);
    server.answer(json(200, stream.at(-1)!.response));
    expect(await model({ stream: false }).complete({ request })).toMatchObject({ text: "Je lis.\nVoilà." });
  });

  test("a refusal is the reply's text, as the Chat Completions adapter reads it", async () => {
    server.answer(json(200, { status: "completed", output: [{ type: "message", id: "msg_r", status: "completed", role: "assistant", content: [{ type: "refusal", refusal: "I can't help with that." }] }] }));
    expect(await model({ stream: false }).complete({ request })).toMatchObject({ text: "I can't help with that.", toolCalls: [] });
  });

  test("an incomplete response is still a reply; its reason is the stop reason", async () => {
    const incomplete = { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [reasoningItem], usage: { input_tokens: 50, output_tokens: 16 } };
    server.answer(sse(sseText([...events(0, 9), { event: "response.incomplete", data: { type: "response.incomplete", response: incomplete } }])));
    expect(await model().complete({ request })).toEqual({
      text: "",
      toolCalls: [],
      stopReason: "max_output_tokens",
      usage: { inputTokens: 50, outputTokens: 16 },
      extra: { openaiResponses: { sequence: [reasoningItem] } },
    });
    server.answer(json(200, incomplete));
    expect(await model({ stream: false }).complete({ request })).toMatchObject({ stopReason: "max_output_tokens" });
  });

  test("with store: false, reasoning without its encrypted content is not kept, nor the ids the API ties to it", async () => {
    const { encrypted_content: _dropped, ...plainReasoning } = reasoningItem;
    server.answer(json(200, { status: "completed", output: [plainReasoning, messageItem, callA] }));
    expect((await model({ stream: false, body: { store: false } }).complete({ request: storeless })).extra).toEqual({
      openaiResponses: { sequence: [{ type: "message", phase: "commentary", status: "completed", content: messageContent }, { type: "function_call", call_id: callA.call_id, status: "completed" }] },
    });
    // Stored (the API's default), the API looks the reasoning up by its id.
    expect((await model({ stream: false }).complete({ request })).extra).toEqual({ openaiResponses: { sequence: [plainReasoning, ...expectedSequence.slice(1, 3)] } });
    // Not stored but with its encrypted content (include: ["reasoning.encrypted_content"]), it is sent back whole, ids and all.
    server.answer(json(200, { status: "completed", output: [reasoningItem, messageItem, callA] }));
    expect((await model({ stream: false, body: { store: false } }).complete({ request: storeless })).extra).toEqual({ openaiResponses: { sequence: expectedSequence.slice(0, 3) } });
  });

  test("with store: false, when one reasoning item of the answer came back without its encrypted content, none is kept, nor any id", async () => {
    const { encrypted_content: _dropped, ...plainReasoning } = reasoningItem;
    server.answer(json(200, { status: "completed", output: [plainReasoning, callA, { ...reasoningItem, id: "rs_2" }, callB] }));
    const reply = await model({ stream: false, body: { store: false } }).complete({ request: storeless });
    expect(reply.toolCalls).toEqual(expectedReply.toolCalls);
    // Nothing left to keep: no reasoning, and the calls without their ids are what the reply's calls already say.
    expect(reply.extra).toBeUndefined();
  });

  test("body.store false with a request built for a stored conversation is refused before anything is sent", async () => {
    const error = await model({ body: { store: false } })
      .complete({ request })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect((error as Error).message).toContain("new OpenAIResponsesRendererPlugin({ store: false })");
    expect(server.requests).toEqual([]);
  });

  test("a plain answer of a stateless call keeps nothing extra", async () => {
    server.answer(json(200, { status: "completed", output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok", annotations: [] }] }] }));
    expect(await model({ stream: false, body: { store: false } }).complete({ request: storeless })).toEqual({ text: "ok", toolCalls: [], stopReason: "completed" });
  });

  test("item types ctxpipe has no model for are kept in the sequence as they came", async () => {
    const search = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "ctxpipe" } };
    server.answer(json(200, { status: "completed", output: [search, messageItem] }));
    expect((await model({ stream: false }).complete({ request })).extra).toEqual({ openaiResponses: { sequence: [search, expectedSequence[1]] } });
  });

  test("a call the answer cut short (response incomplete) is not run, nor kept to be sent back", async () => {
    const cut = { ...callB, status: "incomplete", arguments: '{"path":"b.js' };
    const incomplete = { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [reasoningItem, callA, cut] };
    server.answer(json(200, incomplete));
    const whole = await model({ stream: false }).complete({ request });
    expect(whole.toolCalls).toEqual([expectedReply.toolCalls[0]]);
    expect(whole.stopReason).toBe("max_output_tokens");
    expect(whole.extra).toEqual({ openaiResponses: { sequence: [reasoningItem, expectedSequence[2]] } });
    // Streamed: the cut call was announced and never finished; the final response says it is incomplete.
    const added = (item: Record<string, unknown>, index: number) => ({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", arguments: "" } });
    const done = (item: Record<string, unknown>, index: number) => ({ type: "response.output_item.done", output_index: index, item });
    const streamed = [
      done(reasoningItem, 0),
      added(callA, 1),
      done(callA, 1),
      added(cut, 2),
      { type: "response.function_call_arguments.delta", output_index: 2, delta: '{"path":"b.js' },
      { type: "response.incomplete", response: incomplete },
    ];
    server.answer(sse(sseText(streamed.map((data) => ({ event: data.type, data })))));
    const reply = await model().complete({ request });
    expect(reply.toolCalls).toEqual([expectedReply.toolCalls[0]]);
    expect(reply.extra).toEqual(whole.extra);
  });

  test("two messages of one answer are kept apart, each with its own content, so the next request sends each as it was", async () => {
    const commentary = { type: "message", id: "msg_1", role: "assistant", status: "completed", phase: "commentary", content: [{ type: "output_text", text: "Searching.", annotations: [] }] };
    const answer = {
      type: "message",
      id: "msg_2",
      role: "assistant",
      status: "completed",
      phase: "final_answer",
      content: [{ type: "output_text", text: "May 4 [1].", annotations: [{ type: "url_citation", url: "https://example.test", title: "T", start_index: 6, end_index: 9 }] }],
    };
    const search = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "date" } };
    const output = [reasoningItem, commentary, search, answer];
    server.answer(json(200, { status: "completed", output }));
    const reply = await model({ stream: false }).complete({ request });
    expect(reply.text).toBe("Searching.\nMay 4 [1].");
    const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()] });
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "When?" },
      { id: "a", type: "assistant", text: reply.text, metadata: { extra: reply.extra } },
      { id: "u2", type: "user", text: "Thanks." },
    ];
    const next = await pipeline.build(items, { renderer: "openai-responses", tokenizer: wordTokenizer });
    expect(next.request.input.slice(1, -1)).toEqual(output);
  });

  describe("the reply's text is the text of its messages as stored, so the next request sends them back as they were", () => {
    const message = (id: string, content: Array<Record<string, unknown>>, phase?: string) => ({ type: "message", id, role: "assistant", status: "completed", ...(phase === undefined ? {} : { phase }), content });
    const text = (value: string, annotations: unknown[] = []) => ({ type: "output_text", text: value, annotations });
    const refusal = (value: string) => ({ type: "refusal", refusal: value });
    const cited = { type: "url_citation", url: "https://example.test/a", title: "A", start_index: 0, end_index: 4 };

    /** The items streamed as the API does: added, one delta per part (keyed by its content_index), done, completed. */
    function streamOf(output: ReadonlyArray<Record<string, unknown>>) {
      const stream: Array<Record<string, unknown>> = [];
      output.forEach((item, index) => {
        if (item.type !== "message") {
          stream.push({ type: "response.output_item.done", output_index: index, item });
          return;
        }
        stream.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", content: [] } });
        (item.content as Array<Record<string, unknown>>).forEach((part, contentIndex) => {
          const delta = part.type === "refusal" ? { type: "response.refusal.delta", delta: part.refusal } : { type: "response.output_text.delta", delta: part.text };
          stream.push({ ...delta, output_index: index, item_id: item.id, content_index: contentIndex });
        });
        stream.push({ type: "response.output_item.done", output_index: index, item });
      });
      stream.push({ type: "response.completed", response: { status: "completed", output } });
      return sse(sseText(stream.map((data) => ({ data }))));
    }

    test.for([
      { case: "two text parts of one message, one cited: one per line", output: [reasoningItem, message("msg_1", [text("Part A.", [cited]), text("Part B.")])], expected: "Part A.\nPart B." },
      { case: "a refusal beside text: the text alone (the refusal stays in the stored content)", output: [reasoningItem, message("msg_1", [text("Sure, but"), refusal("I can't do X.")])], expected: "Sure, but" },
      {
        case: "a refusal message, then a message with text: the text",
        output: [reasoningItem, message("msg_1", [refusal("No.")], "commentary"), { ...reasoningItem, id: "rs_2" }, message("msg_2", [text("Other.")], "final_answer")],
        expected: "Other.",
      },
      { case: "a refusal alone: its words", output: [reasoningItem, message("msg_1", [refusal("I can't help with that.")])], expected: "I can't help with that." },
    ])("$case", async ({ output, expected }) => {
      server.answer(streamOf(output));
      const pieces: string[] = [];
      const streamed = await model().complete({ request, onText: (delta) => pieces.push(delta) });
      expect(streamed.text).toBe(expected);
      expect(pieces.join("")).toBe(expected);
      server.answer(json(200, { status: "completed", output }));
      const whole = await model({ stream: false }).complete({ request });
      expect(whole).toEqual(streamed);

      const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()] });
      const items: ItemInput[] = [
        { id: "u", type: "user", text: "Go." },
        { id: "a", type: "assistant", text: whole.text, metadata: { extra: whole.extra } },
        { id: "u2", type: "user", text: "Thanks." },
      ];
      const next = await pipeline.build(items, { renderer: "openai-responses", tokenizer: wordTokenizer });
      expect(next.request.input.slice(1, -1)).toEqual(output);
      expect(next.report.entries.find((entry) => entry.id === "a")?.decision).toBe("kept");
    });
  });

  test("the environment gives the base URL and the key; options win over it; no key means no Authorization header", async () => {
    server.answer(json(200, wholeResponse));
    const env = { OPENAI_BASE_URL: `${server.url}/env/v1/`, OPENAI_API_KEY: "sk-env" };
    await openAIResponsesModel({ model: "m", env, stream: false }).complete({ request });
    await openAIResponsesModel({ model: "m", env, apiKey: "sk-option", baseURL: `${server.url}/option`, stream: false }).complete({ request });
    await openAIResponsesModel({ model: "m", env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: " " }, stream: false }).complete({ request });
    expect(server.requests.map((sent) => [sent.path, sent.headers.authorization])).toEqual([
      ["/env/v1/responses", "Bearer sk-env"],
      ["/option/responses", "Bearer sk-option"],
      ["/responses", undefined],
    ]);
  });

  test("bad options are a PluginOptionsError naming the field", () => {
    expect(() => openAIResponsesModel({ env: {} } as never)).toThrow(PluginOptionsError);
    expect(() => openAIResponsesModel({ env: {} } as never)).toThrow(/→ at model/);
    expect(() => openAIResponsesModel({ model: "m", env: {}, maxOutputTokens: 0 })).toThrow(/→ at maxOutputTokens/);
    // It replaces the request's value, and the API refuses less than 16 (RSP-021), as the renderer's option does.
    expect(() => openAIResponsesModel({ model: "m", env: {}, maxOutputTokens: 15 })).toThrow(/the Responses API takes a max_output_tokens of 16 or more\n {2}→ at maxOutputTokens/);
    expect(() => openAIResponsesModel({ model: "m", env: {}, maxOutputTokens: OPENAI_RESPONSES_MIN_OUTPUT_TOKENS })).not.toThrow();
    expect(() => openAIResponsesModel({ model: "m", env: {}, maxTokens: 10 } as never)).toThrow(/maxTokens/);
    expect(() => openAIResponsesModel({ model: "m", env: {}, body: { input: [] } })).toThrow(/input comes from the build \(or the model option\); the body cannot set it\n {2}→ at body\.input/);
    expect(() => openAIResponsesModel({ model: "m", env: {}, body: { stream: false } })).toThrow(/→ at body\.stream/);
    expect(() => openAIResponsesModel({ model: "m", env: { OPENAI_BASE_URL: "localhost:8080" } })).toThrow(/→ at baseURL \(from OPENAI_BASE_URL\)/);
  });
});

describe("openAIResponsesModel: failures are ModelErrors", () => {
  test.for([
    {
      name: "400 with the API's error body",
      status: 400,
      headers: {},
      body: { error: { message: "No tool output found for function call call_1.", type: "invalid_request_error", param: "input", code: null } },
      expected: { status: 400, providerCode: "invalid_request_error", retryable: false, message: "openai-responses (gpt-test): HTTP 400 Bad Request: No tool output found for function call call_1." },
    },
    {
      name: "429 with retry-after",
      status: 429,
      headers: { "retry-after": "7" },
      body: { error: { message: "Rate limit reached for gpt-test.", type: "requests", param: null, code: "rate_limit_exceeded" } },
      expected: { status: 429, providerCode: "rate_limit_exceeded", retryable: true, retryAfterMs: 7000 },
    },
    {
      name: "500",
      status: 500,
      headers: {},
      body: { error: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", param: null, code: null } },
      expected: { status: 500, providerCode: "server_error", retryable: true, message: "openai-responses (gpt-test): HTTP 500 Internal Server Error: The server had an error while processing your request. Sorry about that!" },
    },
  ])("an HTTP error status: $name", async ({ status, headers, body, expected }) => {
    server.answer((response) => {
      response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    });
    const error = await model().complete({ request }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_HTTP_ERROR", model: "openai-responses (gpt-test)", ...expected });
  });

  test.for([
    {
      name: "an error event",
      event: { type: "error", code: "server_error", message: "The server had an error processing your request.", param: null, sequence_number: 12 },
      expected: { providerCode: "server_error", retryable: true, message: "openai-responses (gpt-test): the stream reported server_error: The server had an error processing your request." },
    },
    {
      name: "a response.failed event",
      event: { type: "response.failed", sequence_number: 12, response: { status: "failed", output: [], error: { code: "invalid_prompt", message: "Invalid prompt: your prompt was flagged." } } },
      expected: { providerCode: "invalid_prompt", retryable: false, message: "openai-responses (gpt-test): the stream reported invalid_prompt: Invalid prompt: your prompt was flagged." },
    },
  ])("$name mid-stream is the provider's error", async ({ event, expected }) => {
    server.answer(sse(sseText([...events(0, 12), { event: event.type, data: event }])));
    const pieces: string[] = [];
    const error = await model().complete({ request, onText: (delta) => pieces.push(delta) }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_HTTP_ERROR", ...expected });
    expect(pieces).toEqual(["Je lis les deux "]);
  });

  test("a 200 answer that holds an error is the provider's error too", async () => {
    server.answer(json(200, { id: "resp_1", object: "response", status: "failed", output: [], error: { code: "rate_limit_exceeded", message: "Rate limit reached." } }));
    await expect(model({ stream: false }).complete({ request })).rejects.toMatchObject({
      code: "LLM_HTTP_ERROR",
      providerCode: "rate_limit_exceeded",
      retryable: true,
      message: "openai-responses (gpt-test): the answer reported rate_limit_exceeded: Rate limit reached.",
    });
    server.answer(json(200, { error: { message: "The model `gpt-test` does not exist.", type: "invalid_request_error", code: "model_not_found" } }));
    await expect(model({ stream: false }).complete({ request })).rejects.toMatchObject({ code: "LLM_HTTP_ERROR", providerCode: "model_not_found" });
  });

  test.for([
    { name: "a JSON answer that is not JSON", stream: false, answer: "<html>", expected: /the answer is not JSON: "<html>"/ },
    { name: "a JSON answer without output", stream: false, answer: { status: "completed" }, expected: /the answer is not a Responses API response:\n✖ .*\n {2}→ at output/ },
    { name: "a function call without a call_id", stream: false, answer: { status: "completed", output: [{ type: "function_call", name: "read_file", arguments: "{}" }] }, expected: /output\[0\] is malformed:\n✖ .*\n {2}→ at call_id/ },
    { name: "a background response", stream: false, answer: { status: "queued", output: [] }, expected: /the answer is still queued: the adapter needs the finished response/ },
    { name: "a stream event that is not JSON", stream: true, answer: sseText([...events(0, 2), { data: "{oops" }]), expected: /a stream event is not JSON: "\{oops"/ },
    { name: "a malformed delta", stream: true, answer: sseText([{ data: { type: "response.output_text.delta", output_index: 0, delta: 7 } }]), expected: /a response.output_text.delta event is malformed:\n✖ .*\n {2}→ at delta/ },
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
    const error = await model({ stream }).complete({ request }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ModelError", code: "LLM_BAD_RESPONSE", retryable: false });
    expect((error as Error).message).toMatch(expected);
  });

  test("a connection cut mid-stream is a retryable LLM_NETWORK_ERROR", async () => {
    server.answer(sse(sseText(events(0, 13)), { ending: "destroy" }));
    const pieces: string[] = [];
    const error = await model().complete({ request, onText: (delta) => pieces.push(delta) }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "LLM_NETWORK_ERROR", retryable: true });
    expect((error as Error).message).toMatch(/^openai-responses \(gpt-test\): (the connection broke while the answer was read|the stream ended before response\.completed)/);
    expect(pieces).toEqual(["Je lis les deux ", "fichiers 😀 …"]);
  });

  test("a stream that ends cleanly before response.completed is incomplete, even after [DONE]", async () => {
    server.answer(sse(`${sseText(events(0, 26))}data: [DONE]\n\n`));
    await expect(model().complete({ request })).rejects.toMatchObject({
      code: "LLM_NETWORK_ERROR",
      retryable: true,
      message: "openai-responses (gpt-test): the stream ended before response.completed: the answer is incomplete",
    });
  });

  test("no answer within timeoutMs is LLM_TIMEOUT, and the request is aborted", async () => {
    server.answer(silence);
    await expect(model({ timeoutMs: 50 }).complete({ request })).rejects.toMatchObject({ code: "LLM_TIMEOUT", retryable: true, message: "openai-responses (gpt-test): no complete answer within 50 ms" });
    await server.requests[0]!.clientGone;
  });

  test("the caller's abort mid-stream is LLM_ABORTED, and the HTTP request really ends", async () => {
    server.answer(sse(sseText(events(0, 12)), { ending: "hang" }));
    const controller = new AbortController();
    const call = model().complete({ request, signal: controller.signal, onText: () => controller.abort(new Error("user pressed stop")) });
    await expect(call).rejects.toMatchObject({ name: "ModelError", code: "LLM_ABORTED", retryable: false, message: "openai-responses (gpt-test): the call was aborted" });
    await expect(call.catch((error: Error) => (error.cause as Error).message)).resolves.toBe("user pressed stop");
    await server.requests[0]!.clientGone;
  });

  test("an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(model().complete({ request, signal: controller.signal })).rejects.toMatchObject({ code: "LLM_ABORTED" });
    expect(server.requests).toEqual([]);
  });

  test("an error thrown by the caller's onText comes back unchanged, and the request is ended", async () => {
    server.answer(sse(sseText(events(0, 12)), { ending: "hang" }));
    const mine = new Error("the UI is gone");
    await expect(
      model().complete({
        request,
        onText: () => {
          throw mine;
        },
      }),
    ).rejects.toBe(mine);
    await server.requests[0]!.clientGone;
  });
});
