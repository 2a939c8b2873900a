import { countOpenAIChatTokens, createPipeline, ERROR_CODES, importStoredMessages, PluginError, PluginOptionsError } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { UnknownModelError } from "../errors/unknown-model-error.js";
import { getEncoding } from "../get-encoding.js";
import { TokenizerPlugin } from "./tokenizer-plugin.js";

const items = importStoredMessages([
  { id: "m1", role: "user", content: "What is in config.json? 配置文件里有什么？", createdAt: "2026-03-02T09:00:00Z" },
  {
    id: "m2",
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"config.json"}' } }],
    createdAt: "2026-03-02T09:00:01Z",
  },
  { id: "m3", role: "tool", tool_call_id: "call_1", content: '\ufeff{"port":8080,"note":"<|endoftext|>"}', toolName: "read_file", createdAt: "2026-03-02T09:00:02Z" },
  { id: "m4", role: "user", content: "thanks, and the port?", createdAt: "2026-03-02T09:00:05Z" },
]);

describe("TokenizerPlugin", () => {
  test("gives an OpenAI model its exact tokenizer", async () => {
    const result = await createPipeline({ plugins: [new TokenizerPlugin()] }).build(items, { model: "gpt-4o" });
    expect(result.tokenCountExact).toBe(true);
    expect(result.report.tokenizer).toEqual({ name: "o200k_base", exact: true });
    expect(result.tokenCount).toBe(countOpenAIChatTokens(result.request, getEncoding("o200k_base")));
  });

  test("uses cl100k_base for GPT-4 snapshots, and the configured backend", async () => {
    const result = await createPipeline({ plugins: [new TokenizerPlugin({ backend: "js-tiktoken" })] }).build(items, { model: "gpt-4-0613" });
    expect(result.report.tokenizer).toEqual({ name: "cl100k_base", exact: true });
    expect(result.tokenCount).toBe(countOpenAIChatTokens(result.request, getEncoding("cl100k_base")));
  });

  test("flags Claude counts as approximate", async () => {
    const result = await createPipeline({ plugins: [new TokenizerPlugin({ safetyMargin: 0.2 })] }).build(items, { model: "claude-sonnet-4-20250514" });
    expect(result.tokenCountExact).toBe(false);
    expect(result.report.tokenizer).toEqual({ name: 'o200k_base × 1.2 + 20% (approximation for "claude-sonnet-4")', exact: false });
  });

  test("an unknown model fails the build with UnknownModelError, named after the plugin", async () => {
    const build = createPipeline({ plugins: [new TokenizerPlugin()] }).build(items, { model: "my-model" });
    await expect(build).rejects.toBeInstanceOf(PluginError);
    await expect(build).rejects.toMatchObject({ code: ERROR_CODES.PLUGIN_FAILED, plugin: "TokenizerPlugin", hook: "tokenizer", pluginCode: ERROR_CODES.MODEL_UNKNOWN });
    const error = await build.catch((caught: unknown) => caught);
    expect((error as PluginError).cause).toBeInstanceOf(UnknownModelError);
  });

  test("an unknown model with a fallback is counted with it, flagged inexact", async () => {
    const result = await createPipeline({ plugins: [new TokenizerPlugin({ fallback: "o200k_base" })] }).build(items, { model: "my-model" });
    expect(result.report.tokenizer).toEqual({ name: 'o200k_base + 10% (fallback for "my-model")', exact: false });
  });

  test("a build without a model falls through to the next tokenizer (core's estimate)", async () => {
    const result = await createPipeline({ plugins: [new TokenizerPlugin()] }).build(items);
    expect(result.report.tokenizer).toEqual({ name: "chars/4", exact: false });
  });

  test("a configured default model answers builds that name none", async () => {
    const result = await createPipeline({ plugins: [new TokenizerPlugin({ defaultModel: "gpt-4.1" })] }).build(items);
    expect(result.report.tokenizer).toEqual({ name: "o200k_base", exact: true });
  });

  test("rebuilding reuses the same tokenizer, so counts are cached across builds", async () => {
    const pipeline = createPipeline({ plugins: [new TokenizerPlugin()] });
    const first = await pipeline.build(items, { model: "claude-opus-4" });
    const second = await pipeline.build(items, { model: "claude-opus-4" });
    expect(second.tokenCount).toBe(first.tokenCount);
    expect(second.report.tokenizer).toEqual(first.report.tokenizer);
  });

  test.for([
    { model: "gpt-4o", reserve: 16_384, budget: { maxTokens: 128_000, reserveOutputTokens: 16_384, available: 111_616 } },
    { model: "claude-sonnet-4-20250514", reserve: 64_000, budget: { maxTokens: 200_000, reserveOutputTokens: 64_000, available: 136_000 } },
    // GPT-5 takes at most 272,000 request tokens of its 400,000-token window.
    { model: "gpt-5", reserve: 8_000, budget: { maxTokens: 280_000, reserveOutputTokens: 8_000, available: 272_000 } },
  ])("reserveOutputTokens without maxTokens gets $model's context window as the budget", async ({ model, reserve, budget }) => {
    const result = await createPipeline({ plugins: [new TokenizerPlugin()] }).build(items, { model, reserveOutputTokens: reserve });
    expect(result.report.budget).toEqual({ ...budget, used: result.tokenCount, attempts: 1 });
    expect(result.report.warnings).toEqual([]);
  });

  test("the default model's window answers builds that name none; an unknown model has no window, so no budget", async () => {
    const pipeline = createPipeline({ plugins: [new TokenizerPlugin({ defaultModel: "gpt-4o", fallback: "o200k_base" })] });
    const unnamed = await pipeline.build(items, { reserveOutputTokens: 1000 });
    expect(unnamed.report.budget).toMatchObject({ maxTokens: 128_000, available: 127_000 });
    const unknown = await pipeline.build(items, { model: "my-model", reserveOutputTokens: 1000 });
    expect(unknown.report.budget).toBeUndefined();
    expect(unknown.report.warnings).toEqual([
      '[ctxpipe] reserveOutputTokens is set, but the request has no budget: maxTokens is not given and no plugin knows the context window of model "my-model" (pass maxTokens, or register TokenizerPlugin from @ctxpipe/tokenizers)',
    ]);
  });

  test("a reserve as large as the model's window is refused", async () => {
    await expect(createPipeline({ plugins: [new TokenizerPlugin()] }).build(items, { model: "gpt-4o", reserveOutputTokens: 128_000 })).rejects.toThrow(
      expect.objectContaining({
        name: "PluginOptionsError",
        message:
          'Invalid options for build():\n✖ must be less than the context window of model "gpt-4o" (128000 tokens), which is the budget when maxTokens is not given\n  → at reserveOutputTokens',
      }),
    );
  });

  test("rejects bad options when constructed, naming the plugin", () => {
    // @ts-expect-error: wrong option types on purpose
    expect(() => new TokenizerPlugin({ backend: "wasm", stage: "late", defaultModel: "" })).toThrowErrorMatchingInlineSnapshot(`
      [PluginOptionsError: Invalid options for TokenizerPlugin:
      ✖ expected one of "gpt-tokenizer" | "js-tiktoken", got "wasm"
        → at backend
      ✖ expected a finite number, got "late"
        → at stage
      ✖ expected a non-empty string, got ""
        → at defaultModel]
    `);
    expect(() => new TokenizerPlugin({ defaultModel: "my-model" })).toThrow(UnknownModelError);
    expect(() => new TokenizerPlugin({ defaultModel: "my-model", fallback: "cl100k_base" })).not.toThrow();
    expect(() => new TokenizerPlugin({ unknown: true } as never)).toThrow(PluginOptionsError);
  });
});
