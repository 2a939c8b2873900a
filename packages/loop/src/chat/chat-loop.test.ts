import type { OpenAIChatRequest } from "@ctxpipe/core";
import { PluginOptionsError } from "@ctxpipe/core";
import { describe, expect, it, test } from "vitest";
import { counterIds, fixedClock, lastUserText, systemText, tempStore, textOf } from "../__fixtures__/loop-fixtures.js";
import { RepeatedFailureError } from "../loop/repeated-failure-error.js";
import type { ModelError } from "../model/model-error.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { ChatLoop } from "./chat-loop.js";

const weather: LoopTool = {
  name: "get_weather",
  description: "The weather in a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  category: "web",
  run: (args) => ({ city: args.city, sky: "clear", celsius: 21 }),
};

function loopWith(model: ReturnType<typeof scriptedModel>, extra: Partial<ConstructorParameters<typeof ChatLoop>[0]> = {}) {
  const { store, directory } = tempStore();
  const loop = new ChatLoop({ model, store, tools: [weather], newId: counterIds(), now: fixedClock(), retryDelayMs: 0, ...extra });
  return { loop, store, directory };
}

describe("ChatLoop: seed 002's chat mode", () => {
  it("persists the user message before the model is called, then the answer", async () => {
    const { store, loop } = loopWith(
      scriptedModel([
        async () => {
          const { messages } = await store.load("c1");
          return { text: `I see ${messages.length} stored message(s).` };
        },
      ]),
    );
    const result = await loop.send({ conversationId: "c1", userInput: "Hello" });
    expect(result.status).toBe("completed");
    expect(result.text).toBe("I see 1 stored message(s).");
    const { messages } = await store.load("c1");
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "USER_INPUT\nHello"],
      ["assistant", "I see 1 stored message(s)."],
    ]);
    // A call that names no mode runs as agent, as a stored message without a mode is read.
    expect(messages[0]).toMatchObject({ mode: "agent", runId: "chat-c1", createdAt: "2026-01-01T00:00:00.000Z" });
    expect(result.persisted.map((message) => message.id)).toEqual(messages.map((message) => message.id));
  });

  it("remembers: the next call's request carries the history from the store", async () => {
    const model = scriptedModel([{ text: "Nice to meet you, Ada." }, { text: "You are Ada." }]);
    const { loop } = loopWith(model);
    await loop.send({ conversationId: "c1", userInput: "My name is Ada.", mode: "chat" });
    await loop.send({ conversationId: "c1", userInput: "What is my name?", mode: "chat" });
    const second = model.calls[1]!.request as OpenAIChatRequest;
    expect(second.messages.filter((message) => message.role !== "system").map((message) => [message.role, textOf(message)])).toEqual([
      ["user", "USER_INPUT\nMy name is Ada."],
      ["assistant", "Nice to meet you, Ada."],
      ["user", "USER_INPUT\nWhat is my name?"],
    ]);
    expect(systemText(second)).toContain("# Mode: CHAT");
  });

  it("a new loop over the same store (a restarted process) sees the conversation", async () => {
    const { store, directory } = tempStore();
    const first = new ChatLoop({ model: scriptedModel([{ text: "Noted." }]), store });
    await first.send({ conversationId: "c1", userInput: "Remember 42." });
    const { JsonlStore } = await import("@ctxpipe/store");
    const model = scriptedModel([{ text: "42." }]);
    const restarted = new ChatLoop({ model, store: new JsonlStore({ directory }) });
    await restarted.send({ conversationId: "c1", userInput: "What number?" });
    expect((model.calls[0]!.request as OpenAIChatRequest).messages.map(textOf)).toContain("USER_INPUT\nRemember 42.");
  });

  it("runs the tool loop, persisting the call and each result as it happens", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] }, { text: "Clear, 21 °C." }]);
    const { loop, store } = loopWith(model);
    const events: string[] = [];
    const result = await loop.send({ conversationId: "c1", userInput: "Weather in Paris?", onEvent: (event) => events.push(event.type) });
    expect(result).toMatchObject({ status: "completed", text: "Clear, 21 °C.", turns: 2 });
    const { messages } = await store.load("c1");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const call = (messages[1]!.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>)[0]!;
    expect(messages[1]!.content).toBeNull();
    expect(call.function).toEqual({ name: "get_weather", arguments: '{"city":"Paris"}' });
    expect(messages[2]).toMatchObject({ role: "tool", tool_call_id: call.id, toolName: "get_weather", partType: "tool_result", content: '{"city":"Paris","sky":"clear","celsius":21}' });
    expect(messages[2]!.duration).toBeGreaterThanOrEqual(0);
    // The second call sees the result, and the tool was offered in the provider's format.
    const second = model.calls[1]!.request as OpenAIChatRequest;
    expect(second.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: call.id });
    expect(second.tools?.map((tool) => tool.function.name)).toEqual(["get_weather"]);
    expect(events.filter((type) => type === "persisted")).toHaveLength(4);
    expect(events).toContain("tool-ran");
  });

  it("turns a tool that throws, an unknown tool and bad arguments into error results the model reads", async () => {
    const failing: LoopTool = {
      name: "fail",
      run: () => {
        throw new Error("disk full");
      },
    };
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "fail", arguments: {} },
          { name: "nope", arguments: {} },
          { name: "get_weather", arguments: "{not json" },
        ],
      },
      { text: "Sorry." },
    ]);
    const { loop, store } = loopWith(model, { tools: [weather, failing] });
    await loop.send({ conversationId: "c1", userInput: "Go" });
    const results = (await store.load("c1")).messages.filter((message) => message.role === "tool");
    expect(results.map((message) => message.is_error)).toEqual([true, true, true]);
    expect(results[0]!.content).toBe("fail failed: disk full");
    expect(results[1]!.content).toMatch(/tool "nope" is not available here\. Available tools: get_weather, fail/);
    expect(results[2]!.content).toMatch(/^cannot call get_weather: the arguments are not valid JSON/);
    // The stored flag marks them; the OpenAI request says "Error: " once, as its renderer does for every failed result.
    const sent = (model.calls[1]!.request as OpenAIChatRequest).messages.filter((message) => message.role === "tool").map((message) => textOf(message));
    expect(sent[0]).toBe("Error: fail failed: disk full");
    for (const text of sent) expect(text).toMatch(/^Error: (?!Error: )/);
  });

  it("stops after maxTurns model calls when the model keeps calling tools", async () => {
    const model = scriptedModel([() => ({ toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] })], { repeatLast: true });
    const { loop, store } = loopWith(model, { maxTurns: 3 });
    const result = await loop.send({ conversationId: "c1", userInput: "Loop" });
    expect(result.status).toBe("max-turns");
    expect(model.calls).toHaveLength(3);
    expect((await store.load("c1")).messages.filter((message) => message.role === "tool")).toHaveLength(3);
  });

  it("streams the answer's text to onText", async () => {
    const { loop } = loopWith(scriptedModel([{ text: "A fairly long answer, streamed in pieces." }]));
    const pieces: string[] = [];
    const result = await loop.send({ conversationId: "c1", userInput: "Hi", onText: (delta) => pieces.push(delta) });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(result.text);
  });

  it("without a conversation id loads and stores nothing, but the tool loop still works within the call", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }] }, { text: "Sunny." }]);
    const { loop, store } = loopWith(model);
    const result = await loop.send({ userInput: "Weather in Rome?" });
    expect(result.status).toBe("completed");
    expect(await store.list()).toEqual([]);
    expect((model.calls[1]!.request as OpenAIChatRequest).messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(result.persisted[0]!.runId).toMatch(/^chat-/);
  });

  it("rejects a conversation id without a store, and bad options, with PluginOptionsError", async () => {
    const loop = new ChatLoop({ model: scriptedModel([]) });
    await expect(loop.send({ conversationId: "c1", userInput: "x" })).rejects.toThrow(PluginOptionsError);
    expect(() => new ChatLoop({ model: scriptedModel([]), maxTurns: 0 })).toThrow(/maxTurns: must be an integer of at least 1/);
    expect(() => new ChatLoop({ model: {} as never })).toThrow(/model: must be a model adapter/);
    expect(() => new ChatLoop({ model: scriptedModel([]), tools: [weather, weather] })).toThrow(/tools\[1\]\.name: "get_weather" is given twice/);
    await expect(new ChatLoop({ model: scriptedModel([]) }).send({ userInput: "x", mode: "run" as never })).rejects.toThrow(/mode: must be "chat" or "agent"/);
  });
});

describe("ChatLoop: seed 002's extra inputs and tool policy", () => {
  it("shows extra user messages and a data context after the history for one call, without storing them", async () => {
    const model = scriptedModel([{ text: "Ran it." }, { text: "Done." }]);
    const { loop, store } = loopWith(model);
    await loop.send({
      conversationId: "c1",
      userInput: "Run my script",
      extraUserMessages: ["EXEC_SCRIPT\nprint(1)", "  "],
      dataContext: { label: "Sales", path: "data/sales.csv", preview: "region,total\nnorth,10" },
    });
    const first = (model.calls[0]!.request as OpenAIChatRequest).messages.filter((message) => message.role !== "system").map(textOf);
    // Consecutive user messages may be merged by the renderer; the order is what matters.
    const joined = first.join("\n");
    expect(joined.indexOf("USER_INPUT\nRun my script")).toBeLessThan(joined.indexOf("EXEC_SCRIPT\nprint(1)"));
    expect(joined.indexOf("EXEC_SCRIPT\nprint(1)")).toBeLessThan(joined.indexOf("DATA_CONTEXT\n- Label: Sales\n- Path: data/sales.csv\n\nregion,total\nnorth,10"));
    const stored = (await store.load("c1")).messages.map((message) => String(message.content));
    expect(stored.some((content) => content.includes("EXEC_SCRIPT") || content.includes("DATA_CONTEXT"))).toBe(false);
    await loop.send({ conversationId: "c1", userInput: "Thanks" });
    const second = (model.calls[1]!.request as OpenAIChatRequest).messages.map(textOf).join("\n");
    expect(second).not.toContain("DATA_CONTEXT");
    expect(second).not.toContain("EXEC_SCRIPT");
  });

  it("the extras are reported as such, and the newest user message is still the user's own", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const { loop } = loopWith(model);
    const result = await loop.send({ conversationId: "c1", userInput: "Look", dataContext: { label: "L", path: "p", preview: "x" } });
    const entry = result.lastBuild!.report.entries.find((item) => item.id.startsWith("data-context-"));
    expect(entry?.decision).toBe("kept");
  });

  it("offers only the tools the merged system- and agent-level policy allows, and refuses a call to any other", async () => {
    const shell: LoopTool = { name: "run_shell", category: "system", run: () => "ran" };
    const files: LoopTool = { name: "read_file", category: "fs", run: () => "contents" };
    const model = scriptedModel([{ toolCalls: [{ name: "run_shell", arguments: {} }] }, { text: "Could not." }]);
    const { loop, store } = loopWith(model, { tools: [weather, shell, files], systemToolPolicy: { deniedCategories: ["system"] } });
    await loop.send({ conversationId: "c1", userInput: "Do it", mode: "agent", toolPolicy: { allowedCategories: ["fs", "system"], deniedTools: ["get_weather"] } });
    const request = model.calls[0]!.request as OpenAIChatRequest;
    expect(request.tools?.map((tool) => tool.function.name)).toEqual(["read_file"]);
    expect(systemText(request)).toContain("# Mode: AGENT");
    const result = (await store.load("c1")).messages.find((message) => message.role === "tool");
    expect(result).toMatchObject({ is_error: true });
    expect(result!.content).toMatch(/tool "run_shell" is not available here\. Available tools: read_file/);
  });
});

describe("ChatLoop: the log's order", () => {
  it("sends the history in the order the log holds it, whatever the writers' clocks said", async () => {
    const model = scriptedModel([{ text: "Three." }]);
    const { loop, store } = loopWith(model);
    // Two processes with skewed clocks wrote these: the second one's clock was behind.
    await store.append("c1", [
      { id: "p1", role: "user", content: "USER_INPUT\nOne.", createdAt: "2026-05-01T10:00:05.000Z" },
      { id: "p2", role: "assistant", content: "Two.", createdAt: "2026-05-01T10:00:01.000Z" },
    ]);
    await loop.send({ conversationId: "c1", userInput: "And three?" });
    const request = model.calls[0]!.request as OpenAIChatRequest;
    expect(request.messages.filter((message) => message.role !== "system").map(textOf)).toEqual(["USER_INPUT\nOne.", "Two.", "USER_INPUT\nAnd three?"]);
  });
});

describe("ChatLoop: failures", () => {
  it("persists a model failure as an assistant error message, so that 'continue' works", async () => {
    const model = scriptedModel([{ error: { message: "invalid api key", code: "LLM_HTTP_ERROR", status: 401 } }, { text: "Picking up where we were." }]);
    const { loop, store } = loopWith(model);
    const failed = await loop.send({ conversationId: "c1", userInput: "Summarise the report" });
    expect(failed.status).toBe("failed");
    expect(failed.error?.code).toBe("LLM_HTTP_ERROR");
    const stored = (await store.load("c1")).messages;
    expect(stored[1]).toMatchObject({ role: "assistant", partType: "error", errorCode: "LLM_HTTP_ERROR" });
    expect(stored[1]!.content).toContain("LLM_ERROR\n- Code: LLM_HTTP_ERROR\n- Status: 401\n- Message: invalid api key");

    const resumed = await loop.send({ conversationId: "c1", userInput: "continue" });
    expect(resumed.status).toBe("completed");
    const request = model.calls[1]!.request as OpenAIChatRequest;
    const texts = request.messages.map(textOf).join("\n");
    expect(texts).toContain("Summarise the report");
    // The failure stays in the log (it is what "continue" answers), but is not replayed to the model.
    expect(texts).not.toContain("invalid api key");
    expect(texts).not.toContain("LLM_ERROR");
    expect(lastUserText(request)).toBe("USER_INPUT\ncontinue");
  });

  it("retries a retryable failure within the call, persisting nothing for it, and sends the same request again", async () => {
    const model = scriptedModel([{ error: { message: "overloaded", code: "LLM_HTTP_ERROR", status: 529 } }, { text: "Here." }]);
    const waits: number[] = [];
    const { loop, store } = loopWith(model, { retryDelayMs: 1000, random: () => 0.5, sleep: async (ms) => void waits.push(ms) });
    const events: unknown[] = [];
    const result = await loop.send({
      conversationId: "c1",
      userInput: "Hi",
      onEvent: (event) => event.type === "model-failed" && events.push({ attempt: event.attempt, repeated: event.repeated, willRetry: event.willRetry, delayMs: event.delayMs }),
    });
    expect(result).toMatchObject({ status: "completed", text: "Here.", turns: 1 });
    expect(events).toEqual([{ attempt: 1, repeated: 0, willRetry: true, delayMs: 875 }]);
    expect(waits).toEqual([875]);
    expect((await store.load("c1")).messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "USER_INPUT\nHi"],
      ["assistant", "Here."],
    ]);
    expect(result.persisted.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(model.calls[1]!.request).toEqual(model.calls[0]!.request);
  });

  test.for([
    { name: "backoff doubles, no jitter", random: 0, retryAfterMs: undefined, maxRetryDelayMs: undefined, waits: [1000, 2000], attempts: 3 },
    { name: "backoff capped", random: 0, retryAfterMs: undefined, maxRetryDelayMs: 1500, waits: [1000, 1500], attempts: 3 },
    { name: "Retry-After replaces the backoff", random: 0.9, retryAfterMs: 4000, maxRetryDelayMs: undefined, waits: [4000, 4000], attempts: 3 },
    { name: "Retry-After beyond the cap: no retry within the call", random: 0, retryAfterMs: 120_000, maxRetryDelayMs: undefined, waits: [], attempts: 1 },
  ])("a failure that persists leaves one error for the call: $name", async ({ random, retryAfterMs, maxRetryDelayMs, waits, attempts }) => {
    const busy = { error: { message: "rate limited", code: "LLM_HTTP_ERROR" as const, status: 429, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } };
    const model = scriptedModel([busy], { repeatLast: true });
    const slept: number[] = [];
    const { loop, store } = loopWith(model, { retryDelayMs: 1000, random: () => random, sleep: async (ms) => void slept.push(ms), ...(maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs }) });
    const failed = await loop.send({ conversationId: "c1", userInput: "Hi" });
    expect(failed).toMatchObject({ status: "failed", error: { code: "LLM_HTTP_ERROR", status: 429 } });
    expect((failed.error as ModelError).retryAfterMs).toBe(retryAfterMs);
    expect(slept).toEqual(waits);
    expect(model.calls).toHaveLength(attempts);
    const messages = (await store.load("c1")).messages;
    expect(messages.map((message) => message.partType ?? message.role)).toEqual(["user", "error"]);
    expect(messages[1]).toMatchObject({ errorCode: "LLM_HTTP_ERROR", errorFingerprint: "LLM_HTTP_ERROR|429||rate limited" });
  });

  it("an abort during the wait before a retry ends the call as aborted, with nothing persisted for the failure", async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ error: { message: "busy", code: "LLM_HTTP_ERROR", status: 503 } }, { text: "never" }]);
    const { loop, store } = loopWith(model, {
      sleep: async () => {
        controller.abort();
      },
    });
    const result = await loop.send({ conversationId: "c1", userInput: "Hi", signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect(model.calls).toHaveLength(1);
    expect((await store.load("c1")).messages.map((message) => message.role)).toEqual(["user"]);
  });

  it("rejects retry options that are not what they should be, naming the field", () => {
    const model = scriptedModel([{ text: "x" }]);
    expect(() => new ChatLoop({ model, maxRetryDelayMs: -1 })).toThrow(/maxRetryDelayMs: must be an integer of at least 0, got -1/);
    expect(() => new ChatLoop({ model, sleep: 5 as never })).toThrow(/sleep: must be a function, got number/);
    expect(() => new ChatLoop({ model, random: "0.5" as never })).toThrow(/random: must be a function, got string/);
  });

  it("stops with RepeatedFailureError when the same failure repeats, counting from the log across calls", async () => {
    const same = { error: { message: "model not found", code: "LLM_HTTP_ERROR" as const, status: 404 } };
    const model = scriptedModel([same, same, same, { text: "never" }]);
    const { loop, store } = loopWith(model, { maxRepeatedFailures: 3 });
    expect((await loop.send({ conversationId: "c1", userInput: "a" })).error?.code).toBe("LLM_HTTP_ERROR");
    expect((await loop.send({ conversationId: "c1", userInput: "continue" })).error?.code).toBe("LLM_HTTP_ERROR");
    const third = await loop.send({ conversationId: "c1", userInput: "continue" });
    expect(third.status).toBe("failed");
    expect(third.error).toBeInstanceOf(RepeatedFailureError);
    expect(third.error).toMatchObject({ code: "LOOP_REPEATED_FAILURE", count: 3 });
    expect(third.error!.message).toMatch(/failed 3 times in a row with the same error \(LLM_HTTP_ERROR: /);
    expect((await store.load("c1")).messages.filter((message) => message.partType === "error")).toHaveLength(3);
  });

  it("a different failure, or an answer, in between starts the count again", async () => {
    const a = { error: { message: "A", code: "LLM_HTTP_ERROR" as const, status: 400 } };
    const b = { error: { message: "B", code: "LLM_HTTP_ERROR" as const, status: 400 } };
    const model = scriptedModel([a, b, a, { text: "fine" }, a, a]);
    const { loop } = loopWith(model, { maxRepeatedFailures: 2 });
    for (let call = 0; call < 5; call++) {
      const result = await loop.send({ conversationId: "c1", userInput: "continue" });
      expect(result.error).not.toBeInstanceOf(RepeatedFailureError);
    }
    expect((await loop.send({ conversationId: "c1", userInput: "continue" })).error).toBeInstanceOf(RepeatedFailureError);
  });

  it("honours an AbortSignal: the call ends as aborted and nothing more is persisted", async () => {
    const controller = new AbortController();
    const model = scriptedModel([
      { toolCalls: [{ name: "get_weather", arguments: { city: "Lima" } }] },
      () => {
        controller.abort();
        return { text: "too late" };
      },
    ]);
    const { loop, store } = loopWith(model);
    const result = await loop.send({ conversationId: "c1", userInput: "Weather?", signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect((await store.load("c1")).messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });
});

describe("ChatLoop: nothing to send", () => {
  it("a blank input on an empty conversation is refused before anything is called", async () => {
    const model = scriptedModel([{ text: "never" }]);
    const { loop, store } = loopWith(model);
    await expect(loop.send({ conversationId: "c1", userInput: "   " })).rejects.toThrow(/userInput: there is nothing to send: give a non-blank userInput, conversation "c1" has no messages yet/);
    await expect(loop.send({})).rejects.toThrow(PluginOptionsError);
    expect(model.calls).toHaveLength(0);
    expect(await store.list()).toEqual([]);
  });
});
