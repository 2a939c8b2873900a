// How a loop counts when it is made: the tokenizer and the budget from the model adapter's model, the
// errors for a model the registry does not know, and what is left as given.
import { countOpenAIChatTokens, createPipeline, estimatingTokenizer, type OpenAIChatRequest, PluginOptionsError } from "@ctxpipe/core";
import { createTokenizer, UnknownModelError } from "@ctxpipe/tokenizers";
import { describe, expect, it, test } from "vitest";
import { ChatLoop } from "../chat/chat-loop.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import { scriptedModel } from "../model/scripted-model.js";
import { RunLoop } from "../run/run-loop.js";
import type { LoopOptions } from "./loop-options.js";
import { tempStore } from "../__fixtures__/loop-fixtures.js";

const httpModel = (model: string) => openAICompatibleModel({ model, baseURL: "http://127.0.0.1:9/v1", env: {} });
const workflow = { name: "w", packageName: "p", steps: [{ id: "s1", name: "Step", instruction: "Do it." }], edges: [] };

describe("a loop made for a model the registry does not know", () => {
  const unknown = (model: string, field: string, close: string) =>
    `ChatLoop: unknown model "${model}" (${field}): the loop does not know its tokenizer or context window.${close} ` +
    'Count it as a known model with tokenCounting: { model: "<known name>" }, or with an encoding and a budget: tokenCounting: { fallback: "o200k_base" } and buildOptions: { maxTokens: <its context window> } (those counts are flagged inexact).';

  test.for([
    {
      name: "the adapter's model",
      options: { model: httpModel("gpt-4o-mni") },
      expected: { model: "gpt-4o-mni", suggestions: ["gpt-4o", "gpt-4o-mini"], message: unknown("gpt-4o-mni", "the model adapter's model", " Close known names: gpt-4o, gpt-4o-mini.") },
    },
    {
      name: "tokenCounting.model",
      options: { model: httpModel("gpt-4o"), tokenCounting: { model: "llama-3-local" } },
      expected: { model: "llama-3-local", suggestions: [], message: unknown("llama-3-local", "tokenCounting.model", "") },
    },
    {
      name: "a scripted model given an unknown name",
      options: { model: scriptedModel([], { model: "local-llm" }) },
      expected: { model: "local-llm", suggestions: [], message: unknown("local-llm", "the model adapter's model", "") },
    },
  ] satisfies Array<{ name: string; options: LoopOptions; expected: object }>)("$name: UnknownModelError when the loop is made", ({ options, expected }) => {
    let error: unknown;
    try {
      new ChatLoop(options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnknownModelError);
    expect(error).toMatchObject({ name: "UnknownModelError", code: "MODEL_UNKNOWN", ...expected });
    expect((error as Error).stack).toContain(`UnknownModelError: ChatLoop: unknown model "${(expected as { model: string }).model}"`);
  });

  it("RunLoop says the same, as RunLoop", () => {
    const { store } = tempStore();
    expect(() => new RunLoop({ model: httpModel("my-model"), store, workflow })).toThrow(/^RunLoop: unknown model "my-model" \(the model adapter's model\)/);
  });

  test.for([
    {
      name: "a fallback without a budget",
      options: { model: httpModel("llama-3-local"), tokenCounting: { fallback: "o200k_base" } },
      details:
        '✖ the registry does not know the context window of "llama-3-local", which is counted with the fallback encoding o200k_base: give maxTokens\n  → at buildOptions.maxTokens',
    },
    {
      name: "tokenCounting with a pipeline of the caller's",
      options: { model: httpModel("gpt-4o"), pipeline: createPipeline(), tokenCounting: { model: "gpt-4o" } },
      details:
        "tokenCounting: applies to the loop's own pipelines; a pipeline of your own counts with its own tokenizer (give it a TokenizerPlugin), so leave one of the two out",
    },
    {
      name: "a fallback for a scripted model without a name, and no budget",
      options: { model: scriptedModel([]), tokenCounting: { fallback: "o200k_base" } },
      details: '✖ the registry does not know the context window of "scripted", which is counted with the fallback encoding o200k_base: give maxTokens\n  → at buildOptions.maxTokens',
    },
    {
      name: "an adapter of the caller's whose model name is blank",
      options: { model: { name: "mine", renderer: "openai", model: " ", complete: async () => ({ text: "", toolCalls: [] }) } },
      details: "✖ expected a non-empty string, got \" \"\n  → at model.model",
    },
    {
      name: "an encoding that is not one",
      options: { model: httpModel("gpt-4o"), tokenCounting: { fallback: "p50k_base" } },
      details: '✖ Invalid option: expected one of "o200k_base"|"cl100k_base"\n  → at tokenCounting.fallback',
    },
    {
      name: "an unknown tokenCounting key",
      options: { model: httpModel("gpt-4o"), tokenCounting: { encoding: "o200k_base" } },
      details: '✖ Unrecognized key: "encoding"',
    },
    {
      name: "a blank tokenCounting.model",
      options: { model: httpModel("gpt-4o"), tokenCounting: { model: " " } },
      details: "✖ Too small: expected string to have >=1 characters\n  → at tokenCounting.model",
    },
    {
      name: "a reserve that fills the window",
      options: { model: httpModel("gpt-4o"), buildOptions: { reserveOutputTokens: 128_000 } },
      details: "✖ 128,000 tokens reserved for the answer leave no room for the prompt in the 128,000-token context window of gpt-4o: must be less\n  → at buildOptions.reserveOutputTokens",
    },
  ] as Array<{ name: string; options: LoopOptions; details: string }>)("$name: PluginOptionsError naming the field", ({ options, details }) => {
    let error: unknown;
    try {
      new ChatLoop(options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect(error).toMatchObject({ code: "OPTIONS_INVALID", plugin: "ChatLoop", message: `Invalid options for ChatLoop:\n${details}` });
  });
});

/** The first request a loop sends for "Hi", with its build. */
async function firstBuild(options: Omit<LoopOptions, "model">, model = scriptedModel([{ text: "Hello." }], { model: "gpt-4o" })) {
  const result = await new ChatLoop({ ...options, model }).send({ userInput: "Hi" });
  return { result, build: result.lastBuild!, request: model.calls[0]!.request as OpenAIChatRequest };
}

describe("what a loop counts with", () => {
  test.for([
    {
      name: "an OpenAI model: its exact encoding, its window less its output limit",
      model: "gpt-4o",
      options: {},
      expected: { tokenizer: { name: "o200k_base", exact: true }, budget: { maxTokens: 128_000, reserveOutputTokens: 16_384, available: 111_616 } },
    },
    {
      name: "an older OpenAI model: cl100k_base",
      model: "gpt-4-turbo",
      options: {},
      expected: { tokenizer: { name: "cl100k_base", exact: true }, budget: { maxTokens: 128_000, reserveOutputTokens: 4_096, available: 123_904 } },
    },
    {
      name: "a dated snapshot counts as its family",
      model: "gpt-4o-2024-08-06",
      options: {},
      expected: { tokenizer: { name: "o200k_base", exact: true }, budget: { maxTokens: 128_000, reserveOutputTokens: 16_384, available: 111_616 } },
    },
    {
      name: "GPT-5: the budget keeps the prompt within its input limit",
      model: "gpt-5",
      options: {},
      expected: { tokenizer: { name: "o200k_base", exact: true }, budget: { maxTokens: 304_000, reserveOutputTokens: 32_000, available: 272_000 } },
    },
    {
      name: "a Claude model: an approximation, flagged inexact",
      model: "claude-sonnet-4-20250514",
      options: {},
      expected: {
        tokenizer: { name: 'o200k_base × 1.2 + 10% (approximation for "claude-sonnet-4")', exact: false },
        budget: { maxTokens: 200_000, reserveOutputTokens: 32_000, available: 168_000 },
      },
    },
    {
      name: "a gateway alias counted as the registry model it stands for",
      model: "team-gateway/fast",
      options: { tokenCounting: { model: "gpt-4o-mini" } },
      expected: { tokenizer: { name: "o200k_base", exact: true }, budget: { maxTokens: 128_000, reserveOutputTokens: 16_384, available: 111_616 } },
    },
    {
      name: "an unknown model with a fallback and a budget: inexact, a quarter of the budget kept for the answer",
      model: "llama-3-local",
      options: { tokenCounting: { fallback: "cl100k_base" }, buildOptions: { maxTokens: 8_192 } },
      expected: { tokenizer: { name: 'cl100k_base + 10% (fallback for "llama-3-local")', exact: false }, budget: { maxTokens: 8_192, reserveOutputTokens: 2_048, available: 6_144 } },
    },
    {
      name: "buildOptions.maxTokens and reserveOutputTokens win",
      model: "gpt-4o",
      options: { buildOptions: { maxTokens: 20_000, reserveOutputTokens: 2_000 } },
      expected: { tokenizer: { name: "o200k_base", exact: true }, budget: { maxTokens: 20_000, reserveOutputTokens: 2_000, available: 18_000 } },
    },
    {
      name: "buildOptions.maxTokens alone, smaller than the model's output limit: a quarter of it is kept for the answer",
      model: "gpt-4o",
      options: { buildOptions: { maxTokens: 8_000 } },
      expected: { tokenizer: { name: "o200k_base", exact: true }, budget: { maxTokens: 8_000, reserveOutputTokens: 2_000, available: 6_000 } },
    },
    {
      name: "buildOptions.reserveOutputTokens alone: the window stays the budget",
      model: "gpt-4o",
      options: { buildOptions: { reserveOutputTokens: 0 } },
      expected: { tokenizer: { name: "o200k_base", exact: true }, budget: { maxTokens: 128_000, reserveOutputTokens: 0, available: 128_000 } },
    },
  ] satisfies Array<{ name: string; model: string; options: Omit<LoopOptions, "model">; expected: object }>)("$name", async ({ model, options, expected }) => {
    const { result, build } = await firstBuild(options, scriptedModel([{ text: "Hello." }], { model }));
    expect({ tokenizer: build.report.tokenizer, budget: build.report.budget }).toEqual({ tokenizer: expected.tokenizer, budget: { ...expected.budget, used: build.tokenCount, attempts: 1 } });
    expect(build.tokenCountExact).toBe(expected.tokenizer.exact);
    expect(result.tokenizer).toMatchObject(expected.tokenizer);
  });

  it("a scripted model without a name counts with core's estimate and has no default budget, as before", async () => {
    const { result, build } = await firstBuild({}, scriptedModel([{ text: "Hello." }]));
    expect({ tokenizer: build.report.tokenizer, budget: build.report.budget, exact: build.tokenCountExact }).toEqual({
      tokenizer: { name: estimatingTokenizer.name, exact: false },
      budget: undefined,
      exact: false,
    });
    expect(result.tokenizer).toBeUndefined();
  });

  it("RunLoop counts and budgets the same way", async () => {
    const { store } = tempStore();
    const result = await new RunLoop({ model: scriptedModel([{ text: "Started." }], { model: "claude-opus-4" }), store, workflow }).continue({ runId: "r1", userInput: "Go" });
    expect({ tokenizer: result.lastBuild!.report.tokenizer, budget: result.lastBuild!.report.budget, resultTokenizer: result.tokenizer }).toEqual({
      tokenizer: { name: 'o200k_base × 1.2 + 10% (approximation for "claude-opus-4")', exact: false },
      budget: { maxTokens: 200_000, reserveOutputTokens: 32_000, available: 168_000, used: result.lastBuild!.tokenCount, attempts: 1 },
      resultTokenizer: { name: 'o200k_base × 1.2 + 10% (approximation for "claude-opus-4")', exact: false, factor: 1.2 },
    });
  });

  it("a scripted model without a name and a fallback: counted with it, under the adapter's name", async () => {
    const { build } = await firstBuild({ tokenCounting: { fallback: "o200k_base" }, buildOptions: { maxTokens: 4_000 } }, scriptedModel([{ text: "Hello." }]));
    expect({ tokenizer: build.report.tokenizer, available: build.report.budget?.available }).toEqual({ tokenizer: { name: 'o200k_base + 10% (fallback for "scripted")', exact: false }, available: 3_000 });
  });

  it("a scripted model without a name opts in with tokenCounting.model", async () => {
    const { build } = await firstBuild({ tokenCounting: { model: "gpt-4o" } }, scriptedModel([{ text: "Hello." }]));
    expect(build.report.tokenizer).toEqual({ name: "o200k_base", exact: true });
  });

  it("a pipeline of the caller's is used as given: its tokenizer, no default budget, an unknown model is no error", async () => {
    const pipeline = createPipeline();
    const { result, build } = await firstBuild({ pipeline }, scriptedModel([{ text: "Hello." }], { model: "local-llm" }));
    expect({ tokenizer: build.report.tokenizer, budget: build.report.budget }).toEqual({ tokenizer: { name: estimatingTokenizer.name, exact: false }, budget: undefined });
    expect(result.tokenizer).toBeUndefined();
  });

  it("a tokenizer in buildOptions counts, and the model's budget still applies", async () => {
    const words = { specificationVersion: "v1", name: "words", exact: false, count: (text: string) => text.split(/\s+/).filter(Boolean).length } as const;
    const { build } = await firstBuild({ buildOptions: { tokenizer: words } });
    expect({ tokenizer: build.report.tokenizer, available: build.report.budget?.available }).toEqual({ tokenizer: { name: "words", exact: false }, available: 111_616 });
  });

  it("a tokenizer in buildOptions with an unknown model: used as given, with no budget of the loop's", async () => {
    const words = { specificationVersion: "v1", name: "words", exact: false, count: (text: string) => text.split(/\s+/).filter(Boolean).length } as const;
    const { build } = await firstBuild({ buildOptions: { tokenizer: words } }, scriptedModel([{ text: "Hello." }], { model: "local-llm" }));
    expect({ tokenizer: build.report.tokenizer, budget: build.report.budget }).toEqual({ tokenizer: { name: "words", exact: false }, budget: undefined });
  });

  it("the count is the request's exact o200k count", async () => {
    const { build, request } = await firstBuild({});
    expect(build.request).toEqual(request);
    expect(build.tokenCount).toBe(countOpenAIChatTokens(request, createTokenizer("gpt-4o")));
  });
});
