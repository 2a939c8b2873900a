// retrieve_context in an AI SDK agent, with the real `ai` package and its mock language model: a
// history whose giant tool result compression cuts, a model that calls context.tools.retrieve_context
// with the handle and range its marker names, and replies that hold exactly that range of the
// original, in bounded parts, while every prompt stays inside the budget.
import { type BuildResult, DEFAULT_RETRIEVE_MAX_CHARS, RETRIEVE_CONTEXT_PARAMETERS } from "@ctxpipe/core";
import { generateText, type ModelMessage, stepCountIs, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import type { AiSdkRequest } from "../messages/index.js";
import { sentPromptProblems } from "./__fixtures__/check-sent-prompt.js";
import { createAiSdkContext } from "./index.js";
import type { ProviderPrompt } from "./provider-prompt.js";

const MAX_TOKENS = 12_000;
const RESERVE = 1_000;
const HANDLE_PATTERN = /call retrieve_context with (\{"handle":"ctx_[0-9a-f]+","from":\d+,"to":\d+\})/;

// 600 distinct numbered lines (about 20,000 characters): any range read back is checkable against the original.
const LOG = Array.from({ length: 600 }, (_, line) => `${String(line).padStart(4, "0")} GET /api/items/${line * 7} ${line % 13 === 0 ? "500 upstream timeout" : "200 OK"}`).join("\n");

const tools = {
  read_log: tool({ description: "Reads the server log", inputSchema: z.object({}), execute: async () => LOG }),
};

function history(): ModelMessage[] {
  return [
    { role: "user", content: "Read the server log." },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_log", toolName: "read_log", input: {} }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_log", toolName: "read_log", output: { type: "text", value: LOG } }] },
    { role: "assistant", content: "I read it." },
    { role: "user", content: "Which requests failed in the part you did not see?" },
  ];
}

type Call = { readonly toolName: string; readonly input: unknown } | { readonly text: string };

/** The result the prompt holds for a call id: its output as the AI SDK sent it. */
function resultOf(prompt: ProviderPrompt, toolCallId: string): { type: string; value: unknown } | undefined {
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result" && part.toolCallId === toolCallId) return part.output as { type: string; value: unknown };
  }
  return undefined;
}

/** A mock model that decides each step from the prompt it receives (as a real model reads the marker). */
function readingModel(decide: (prompt: ProviderPrompt, step: number) => Call) {
  const prompts: ProviderPrompt[] = [];
  const usage = { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } };
  const model = new MockLanguageModelV4({
    modelId: "gpt-4o",
    provider: "mock.chat",
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const call = decide(prompt, prompts.length - 1);
      if ("text" in call) return { content: [{ type: "text", text: call.text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      return {
        content: [{ type: "tool-call", toolCallId: `call_${prompts.length - 1}`, toolName: call.toolName, input: JSON.stringify(call.input) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

/** The reply's first line and the text it holds. */
function split(reply: unknown): { head: string; part: string } {
  const text = String(reply);
  const newline = text.indexOf("\n");
  return { head: text.slice(0, newline), part: text.slice(newline + 1) };
}

describe("context.tools.retrieve_context", () => {
  test("the model reads a range the cut marker names back in parts, exactly, and every prompt fits the budget", async () => {
    const builds: BuildResult<AiSdkRequest>[] = [];
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, tools, onBuild: (result) => void builds.push(result) });
    let asked: { handle: string; from: number; to: number } | undefined;
    const parts: string[] = [];
    const { model, prompts } = readingModel((prompt, step) => {
      if (step === 0) {
        // The marker compression put in the giant result names the handle and the range cut: the
        // model asks for the first 6,000 characters of that range.
        const marker = HANDLE_PATTERN.exec(JSON.stringify(prompt).replaceAll('\\"', '"'));
        expect(marker, "the first prompt holds a cut marker").not.toBeNull();
        const cut = JSON.parse(marker![1]!) as { handle: string; from: number; to: number };
        asked = { ...cut, to: cut.from + 6_000 };
        return { toolName: "retrieve_context", input: asked };
      }
      const output = resultOf(prompt, `call_${step - 1}`);
      expect(output?.type).toBe("text");
      const { head, part } = split(output!.value);
      parts.push(part);
      const next = /call retrieve_context with (\{.*?\}) for the next part/.exec(head);
      return next === null ? { text: "Every 13th request failed with an upstream timeout." } : { toolName: "retrieve_context", input: JSON.parse(next[1]!) };
    });

    const result = await generateText({ model, messages: history(), tools: { ...tools, ...context.tools }, stopWhen: stepCountIs(10), prepareStep: context.prepareStep });

    expect(result.text).toBe("Every 13th request failed with an upstream timeout.");
    expect(builds[0]!.report.offloaded.map(({ text }) => text)).toEqual([LOG]);
    expect(asked!.to).toBeLessThan(LOG.length - 1_000);
    // The parts, joined, are exactly the range asked for, each at most the default cap (a quarter of
    // the prompt's budget in characters), so several calls were needed.
    const cap = Math.floor(builds[0]!.report.budget!.available / 4);
    expect(parts.join("")).toBe(LOG.slice(asked!.from, asked!.to));
    expect(parts.length).toBe(Math.ceil(6_000 / cap));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(cap);
    expect(builds).toHaveLength(prompts.length);
    prompts.forEach((prompt, step) => {
      expect(sentPromptProblems(prompt), `step ${step}`).toEqual([]);
      expect(builds[step]!.tokenCountExact).toBe(true);
      expect(builds[step]!.tokenCount, `step ${step}`).toBeLessThanOrEqual(MAX_TOKENS - RESERVE);
    });
  });

  test("through the middleware: the call's tools count, and the model reads the cut range back", async () => {
    const builds: BuildResult<AiSdkRequest>[] = [];
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, onBuild: (result) => void builds.push(result) });
    let asked: { handle: string; from: number; to: number } | undefined;
    let part = "";
    const { model, prompts } = readingModel((prompt, step) => {
      if (step === 0) {
        asked = JSON.parse(HANDLE_PATTERN.exec(JSON.stringify(prompt).replaceAll('\\"', '"'))![1]!) as { handle: string; from: number; to: number };
        return { toolName: "retrieve_context", input: { ...asked, to: asked.from + 500 } };
      }
      part = split(resultOf(prompt, "call_0")!.value).part;
      return { text: "done" };
    });
    const wrapped = wrapLanguageModel({ model, middleware: context.middleware });
    await generateText({ model: wrapped, messages: history(), tools: { ...tools, ...context.tools }, stopWhen: stepCountIs(3) });
    expect(part).toBe(LOG.slice(asked!.from, asked!.from + 500));
    expect(prompts).toHaveLength(2);
    const alone = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE });
    await generateText({ model: wrapLanguageModel({ model: readingModel(() => ({ text: "ok" })).model, middleware: alone.middleware }), messages: history(), tools });
    // The same first call without retrieve_context among its tools counts fewer tokens.
    expect(builds[0]!.tokenCount).toBeGreaterThan(alone.lastBuild!.tokenCount + 40);
    for (const build of builds) expect(build.tokenCount).toBeLessThanOrEqual(MAX_TOKENS - RESERVE);
  });

  test("bad arguments and an unknown handle come back to the model as tool errors saying what to fix", async () => {
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, tools });
    const handle = () => /"handle":"(ctx_[0-9a-f]+)"/.exec(JSON.stringify(context.lastBuild!.request.messages).replaceAll('\\"', '"'))![1]!;
    const attempts = [
      () => ({ from: 3 }),
      () => ({ handle: handle(), from: -1 }),
      () => ({ handle: handle(), to: 2.5 }),
      () => ({ handle: "ctx_ffffffffffffffff" }),
      () => ({ handle: handle(), from: LOG.length + 1 }),
    ];
    const { model, prompts } = readingModel((_prompt, step) => (step < attempts.length ? { toolName: "retrieve_context", input: attempts[step]!() } : { text: "done" }));

    await generateText({ model, messages: history(), tools: { ...tools, ...context.tools }, stopWhen: stepCountIs(10), prepareStep: context.prepareStep });

    const errors = attempts.map((_, step) => resultOf(prompts[step + 1]!, `call_${step}`));
    expect(errors).toEqual([
      { type: "error-text", value: 'Error: "handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")' },
      { type: "error-text", value: 'Error: "from" must be a whole number of at least 0, got -1' },
      { type: "error-text", value: 'Error: "to" must be a whole number of at least 0, got 2.5' },
      { type: "error-text", value: 'Error: no text is kept under the handle "ctx_ffffffffffffffff" in this conversation; use a handle exactly as a marker or placeholder names it' },
      { type: "error-text", value: `Error: "from" (${LOG.length + 1}) is past the end of ${handle()}, which holds ${LOG.length.toLocaleString("en-US")} characters` },
    ]);
  });

  test("by default one call returns a quarter of the last build's budget in characters", async () => {
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, tools });
    const { model } = readingModel(() => ({ text: "ok" }));
    await generateText({ model, messages: history(), tools: { ...tools, ...context.tools }, prepareStep: context.prepareStep });
    const offloaded = context.lastBuild!.report.offloaded;
    expect(offloaded.map(({ text }) => text)).toEqual([LOG]);
    const reply = await context.tools.retrieve_context.execute!({ handle: offloaded[0]!.handle }, { toolCallId: "t", messages: [], context: {} });
    const expected = Math.max(1000, Math.min(DEFAULT_RETRIEVE_MAX_CHARS, Math.floor(context.lastBuild!.report.budget!.available / 4)));
    expect(split(reply).part).toBe(LOG.slice(0, expected));
  });

  test("a handle the context no longer holds is looked up with loadOffloaded (a store filled in onBuild)", async () => {
    const store = new Map<string, string>();
    const context = createAiSdkContext({
      maxTokens: MAX_TOKENS,
      reserveOutputTokens: RESERVE,
      tools,
      maxOffloadedChars: 0,
      loadOffloaded: (handle) => store.get(handle),
      onBuild: (result) => {
        for (const { handle, text } of result.report.offloaded) store.set(handle, text);
      },
    });
    const { model } = readingModel(() => ({ text: "ok" }));
    await generateText({ model, messages: history(), tools: { ...tools, ...context.tools }, prepareStep: context.prepareStep });
    expect(context.lastBuild!.report.offloaded).toHaveLength(1);
    const [kept] = context.lastBuild!.report.offloaded;
    const reply = await context.tools.retrieve_context.execute!({ handle: kept!.handle, from: 10, to: 20 }, { toolCallId: "t", messages: [], context: {} });
    expect(split(reply).part).toBe(LOG.slice(10, 20));
  });

  test("its definition counts in prepareStep's budget once the caller takes context.tools, and once only", async () => {
    const tokensOf = async (make: () => ReturnType<typeof createAiSdkContext>) => {
      const context = make();
      const { model } = readingModel(() => ({ text: "ok" }));
      await generateText({ model, messages: [{ role: "user", content: "Hello" }], prepareStep: context.prepareStep });
      return context.lastBuild!.tokenCount;
    };
    const without = await tokensOf(() => createAiSdkContext({ tools }));
    const taken = await tokensOf(() => {
      const context = createAiSdkContext({ tools });
      void context.tools;
      return context;
    });
    // The same definition given both ways (in the tools option and taken) is counted once.
    const both = await tokensOf(() => {
      const context = createAiSdkContext({ tools: { ...tools, ...createAiSdkContext().tools } });
      void context.tools;
      return context;
    });
    expect(taken).toBeGreaterThan(without + 40);
    expect(both).toBe(taken);
  });

  test("its definition is the loops' own (same description and JSON schema)", async () => {
    const { retrieve_context } = createAiSdkContext().tools;
    expect(retrieve_context.description).toContain("Reads back text that was cut or cleared");
    const schema = await (retrieve_context.inputSchema as { jsonSchema: unknown }).jsonSchema;
    expect(schema).toStrictEqual(RETRIEVE_CONTEXT_PARAMETERS);
  });

  test.for([
    { option: "maxOffloadedChars", value: -1 },
    { option: "retrieveMaxChars", value: 0 },
    { option: "loadOffloaded", value: "store" },
  ])("a bad $option is a PluginOptionsError naming it", ({ option, value }) => {
    expect(() => createAiSdkContext({ [option]: value })).toThrow(new RegExp(`at ${option}`));
  });
});
