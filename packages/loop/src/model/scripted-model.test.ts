import { createPipeline, type OpenAIChatRequest, PluginOptionsError } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { ModelError } from "./model-error.js";
import { scriptedModel } from "./scripted-model.js";

async function requestFor(question: string): Promise<OpenAIChatRequest> {
  return (await createPipeline().build([{ id: "u1", type: "user", text: question }], { system: "Be brief.", tokenizer: wordTokenizer })).request;
}

const lastUserText = (request: OpenAIChatRequest) => String(request.messages.findLast((message) => message.role === "user")?.content);

describe("scriptedModel", () => {
  test("answers from the script in order, streaming the text in word pieces, and records each request", async () => {
    const model = scriptedModel([{ text: "Paris, of course." }, { text: "Rome.", usage: { inputTokens: 10, outputTokens: 2 } }], { model: "demo" });
    const pieces: string[] = [];
    const first = await requestFor("Capital of France?");
    expect(await model.complete({ request: first, onText: (delta) => pieces.push(delta) })).toEqual({ text: "Paris, of course.", toolCalls: [], stopReason: "stop" });
    expect(pieces).toEqual(["Paris, ", "of ", "course."]);
    const second = await requestFor("And Italy?");
    expect(await model.complete({ request: second })).toEqual({ text: "Rome.", toolCalls: [], stopReason: "stop", usage: { inputTokens: 10, outputTokens: 2 } });
    expect(model.calls).toEqual([
      { index: 0, request: first },
      { index: 1, request: second },
    ]);
    expect(model).toMatchObject({ name: "scripted (demo)", renderer: "openai", model: "demo" });
  });

  test("tool calls: object arguments become JSON, strings are sent as they are, ids are derived from the request", async () => {
    const script = [{ toolCalls: [{ name: "read_file", arguments: { path: "a.json" } }, { name: "broken", arguments: "{not json" }, { name: "ping" }, { name: "named", id: "call_mine" }] }];
    const request = await requestFor("Read it.");
    const reply = await scriptedModel(script).complete({ request });
    expect(reply).toMatchObject({
      text: "",
      stopReason: "tool_calls",
      toolCalls: [
        { name: "read_file", arguments: '{"path":"a.json"}' },
        { name: "broken", arguments: "{not json" },
        { name: "ping", arguments: "{}" },
        { id: "call_mine", name: "named", arguments: "{}" },
      ],
    });
    const ids = reply.toolCalls.map((call) => call.id);
    expect(ids[0]).toMatch(/^call_[0-9a-f]{12}_1$/);
    expect(new Set(ids).size).toBe(4);
    // The same request gives the same ids in another process; a different one (the conversation went on) does not.
    expect((await scriptedModel(script).complete({ request })).toolCalls.map((call) => call.id)).toEqual(ids);
    const later = (await scriptedModel(script).complete({ request: await requestFor("Read it again.") })).toolCalls.map((call) => call.id);
    expect(later.filter((id) => ids.includes(id))).toEqual(["call_mine"]);
  });

  test("for the anthropic renderer the stop reasons are Anthropic's", async () => {
    const model = scriptedModel([{ text: "Hi." }, { toolCalls: [{ name: "x" }] }], { renderer: "anthropic" });
    const request = { max_tokens: 100, messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }] };
    expect((await model.complete({ request })).stopReason).toBe("end_turn");
    expect((await model.complete({ request })).stopReason).toBe("tool_use");
    expect(model).toMatchObject({ renderer: "anthropic", name: "scripted" });
  });

  test("a function entry answers from the request and the call index, and may be async", async () => {
    const model = scriptedModel([(request, index) => ({ text: `#${index}: you said ${lastUserText(request)}` }), async (request) => ({ text: lastUserText(request).toUpperCase() })]);
    expect((await model.complete({ request: await requestFor("hello") })).text).toBe("#0: you said hello");
    expect((await model.complete({ request: await requestFor("again") })).text).toBe("AGAIN");
  });

  test.for([
    {
      name: "an HTTP failure, retryable by its status",
      entry: { error: { message: "overloaded", code: "LLM_HTTP_ERROR" as const, status: 529, providerCode: "overloaded_error" } },
      expected: { code: "LLM_HTTP_ERROR", message: "overloaded", status: 529, providerCode: "overloaded_error", retryable: true, model: "scripted" },
    },
    { name: "a 401, not retryable", entry: { error: { message: "invalid api key", code: "LLM_HTTP_ERROR" as const, status: 401 } }, expected: { status: 401, retryable: false } },
    { name: "a timeout, retryable", entry: { error: { message: "slow", code: "LLM_TIMEOUT" as const } }, expected: { code: "LLM_TIMEOUT", retryable: true } },
    { name: "no code: LLM_SCRIPT_ERROR", entry: { error: { message: "boom" } }, expected: { code: "LLM_SCRIPT_ERROR", retryable: false } },
    { name: "retryable said outright", entry: { error: { message: "bad", code: "LLM_BAD_RESPONSE" as const, retryable: true } }, expected: { code: "LLM_BAD_RESPONSE", retryable: true } },
    { name: "a 429 asking to wait", entry: { error: { message: "slow down", code: "LLM_HTTP_ERROR" as const, status: 429, retryAfterMs: 2000 } }, expected: { status: 429, retryable: true, retryAfterMs: 2000 } },
  ])("a failure entry rejects with a ModelError: $name", async ({ entry, expected }) => {
    const error = await scriptedModel([entry]).complete({ request: await requestFor("x") }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ name: "ModelError", ...expected });
  });

  test("past the end of the script: LLM_SCRIPT_ERROR saying how many calls were scripted, or the last entry again with repeatLast", async () => {
    const request = await requestFor("x");
    const model = scriptedModel([{ text: "one" }, { text: "two" }]);
    await model.complete({ request });
    await model.complete({ request });
    await expect(model.complete({ request })).rejects.toMatchObject({
      name: "ModelError",
      code: "LLM_SCRIPT_ERROR",
      message: "the script ran out: call 3 was made, but only 2 calls were scripted",
    });
    expect(model.calls).toHaveLength(3);
    await expect(scriptedModel([]).complete({ request })).rejects.toThrow("the script ran out: call 1 was made, but only 0 calls were scripted");

    const repeating = scriptedModel([{ text: "one" }, (_request, index) => ({ text: `again ${index}` })], { repeatLast: true });
    const texts = [];
    for (let call = 0; call < 4; call++) texts.push((await repeating.complete({ request })).text);
    expect(texts).toEqual(["one", "again 1", "again 2", "again 3"]);
  });

  test("honours the AbortSignal: before the call, inside a function entry, and between streamed pieces", async () => {
    const request = await requestFor("x");
    const before = new AbortController();
    before.abort();
    await expect(scriptedModel([{ text: "never" }]).complete({ request, signal: before.signal })).rejects.toMatchObject({ code: "LLM_ABORTED", message: "the call was aborted" });

    const inside = new AbortController();
    const model = scriptedModel([
      () => {
        inside.abort();
        return { text: "too late" };
      },
    ]);
    await expect(model.complete({ request, signal: inside.signal })).rejects.toMatchObject({ code: "LLM_ABORTED" });

    const midStream = new AbortController();
    const pieces: string[] = [];
    setImmediate(() => midStream.abort());
    await expect(scriptedModel([{ text: "a b c d e f" }]).complete({ request, signal: midStream.signal, onText: (delta) => pieces.push(delta) })).rejects.toMatchObject({
      code: "LLM_ABORTED",
    });
    expect(pieces).toEqual(["a "]);
  });

  test("a bad script is a PluginOptionsError naming the entry and field", () => {
    expect(() => scriptedModel([{ text: "ok" }, { toolCalls: [{ name: "" }] }, { error: { message: "x", code: "NOPE" } }] as never)).toThrow(PluginOptionsError);
    expect(() => scriptedModel([{ text: "ok" }, { toolCalls: [{ name: "" }] }] as never)).toThrow(/→ at script\[1\]\.toolCalls\[0\]\.name/);
    expect(() => scriptedModel([{ error: { message: "x", code: "NOPE" } }] as never)).toThrow(/→ at script\[0\]\.error\.code/);
    expect(() => scriptedModel([{ txt: "typo" }] as never)).toThrow(/Unrecognized key: "txt"/);
    expect(() => scriptedModel([], { renderer: "" as never })).toThrow(/→ at renderer/);
  });

  test("a function entry that throws or answers nonsense is LLM_SCRIPT_ERROR; one that throws a ModelError passes it on", async () => {
    const request = await requestFor("x");
    const thrown = new ModelError("LLM_TIMEOUT", "scripted timeout", { model: "scripted", retryable: true });
    const model = scriptedModel([
      () => {
        throw new Error("bug in the example");
      },
      () => ({ toolCalls: [{ arguments: {} }] }) as never,
      () => {
        throw thrown;
      },
    ]);
    await expect(model.complete({ request })).rejects.toMatchObject({ code: "LLM_SCRIPT_ERROR", message: "script entry 0 threw: bug in the example" });
    await expect(model.complete({ request })).rejects.toMatchObject({ code: "LLM_SCRIPT_ERROR", message: expect.stringMatching(/^script entry 1 returned an answer that is not one:\n✖ .*\n {2}→ at script\[1\]\(\)\.toolCalls\[0\]\.name/) });
    await expect(model.complete({ request })).rejects.toBe(thrown);
  });
});
