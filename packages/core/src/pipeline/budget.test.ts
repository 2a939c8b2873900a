import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { countOpenAIChatTokens } from "../renderers/openai-chat/count-openai-chat-tokens.js";
import type { ItemInput } from "../model/item.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { toolLoopFixture, wordTokenizer } from "../testing/index.js";

/** A new tokenizer object, so no per-tokenizer cache can answer for it. */
const freshWordTokenizer = (): Tokenizer => ({ ...wordTokenizer, count: (text) => wordTokenizer.count(text) });
import { createPipeline } from "./pipeline.js";

describe("budget", () => {
  test("the report states the budget and what the rendered request used", async () => {
    const result = await createPipeline().build(toolLoopFixture(), { tokenizer: wordTokenizer, maxTokens: 1000, reserveOutputTokens: 200 });
    expect(result.report.budget).toEqual({ maxTokens: 1000, reserveOutputTokens: 200, available: 800, used: result.tokenCount, attempts: 1 });
  });

  test("without a compress plugin, a request over maxTokens minus reserveOutputTokens is refused with the figures, never sent silently", async () => {
    const fits = await createPipeline().build(toolLoopFixture(), { tokenizer: wordTokenizer });
    const error = await createPipeline({ defaults: { fitBudget: false } })
      .build(toolLoopFixture(), { tokenizer: wordTokenizer, maxTokens: fits.tokenCount + 10, reserveOutputTokens: 11 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error).toMatchObject({ name: "BudgetExceededError", code: "BUDGET_EXCEEDED", tokenCount: fits.tokenCount, available: fits.tokenCount - 1, exact: true });
  });

  test("the rendered request of one turn never exceeds the budget: it fits or the build fails (property)", async () => {
    const fits = await createPipeline().build(toolLoopFixture(), { tokenizer: wordTokenizer });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: fits.tokenCount * 2 }), fc.integer({ min: 0, max: 20 }), async (maxTokens, reserve) => {
        const reserveOutputTokens = Math.min(reserve, maxTokens - 1);
        try {
          const result = await createPipeline().build(toolLoopFixture(), { tokenizer: wordTokenizer, maxTokens, reserveOutputTokens });
          expect(result.tokenCount).toBeLessThanOrEqual(maxTokens - reserveOutputTokens);
          // The count checked against the budget is the count of what is actually sent.
          expect(result.tokenCount).toBe(countOpenAIChatTokens(result.request, freshWordTokenizer()));
        } catch (error) {
          expect(error).toBeInstanceOf(BudgetExceededError);
          expect(fits.tokenCount).toBeGreaterThan(maxTokens - reserveOutputTokens);
        }
      }),
    );
  });

  test.for([
    { options: { maxTokens: 0 }, field: "maxTokens" },
    { options: { maxTokens: 10.5 }, field: "maxTokens" },
    { options: { reserveOutputTokens: -1 }, field: "reserveOutputTokens" },
    { options: { tools: [{ description: "no name" }] }, field: "tools" },
    { options: { maxTokens: 100, reserveOutputTokens: 100 }, field: "reserveOutputTokens" },
    { options: { reserveOutputTokens: 10 }, field: "reserveOutputTokens" },
    { options: { system: 5 }, field: "system" },
    { options: { system: [null] }, field: "system" },
    { options: { system: [{ text: 5 }] }, field: "system" },
    { options: { system: [{ text: "x", order: Number.NaN }] }, field: "system" },
    { options: { tokenizer: {} }, field: "tokenizer" },
  ])("bad build options are refused naming the field: $field", async ({ options, field }) => {
    await expect(createPipeline().build(toolLoopFixture(), options as never)).rejects.toMatchObject({
      name: "PluginOptionsError",
      code: "OPTIONS_INVALID",
      plugin: "build()",
      message: expect.stringContaining(field),
    });
  });

  test("estimates that undercount by more than one attempt's overshoot still end in a request that fits", async () => {
    // The history ends on an error, so repair adds a "Continue." turn the compress stage's estimate
    // did not see: the whole history renders 1 token over, the newest turn alone well under.
    const items: ItemInput[] = [
      { id: "t0-user", type: "user", text: "你好，请帮我总结一下这个文件。" },
      { id: "t1-user", type: "user", text: "Fix the failing test in parser.ts." },
      { id: "t1-error", type: "error", text: "LLM_TIMEOUT: no answer within 60 s" },
    ];
    const options = { tokenizer: wordTokenizer, system: "You are a careful engineer." };
    const whole = await createPipeline().build(items, options);
    const newest = await createPipeline().build(items.slice(1), options);
    const maxTokens = whole.tokenCount - 1;
    expect(newest.tokenCount).toBeLessThan(maxTokens);
    const result = await createPipeline().build(items, { ...options, maxTokens });
    expect(result.tokenCount).toBeLessThanOrEqual(maxTokens);
    expect(result.includedIds).toEqual(["t1-user", "t1-error"]);
    expect(result.report.budget!.attempts).toBeGreaterThan(1);
  });

  test("a newest turn that cannot fit says so, even when the estimate thought it would", async () => {
    const items: ItemInput[] = [
      { id: "t0-user", type: "user", text: "你好，请帮我总结一下这个文件。" },
      { id: "t0-reply", type: "assistant", text: "你好，请帮我总结一下这个文件。" },
    ];
    const fits = await createPipeline().build(items, { tokenizer: wordTokenizer });
    const error = await createPipeline()
      .build(items, { tokenizer: wordTokenizer, maxTokens: fits.tokenCount - 1 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as BudgetExceededError).detail).toContain('newest turn (from item "t0-user")');
    expect((error as Error).message).toContain("do not fit on their own");
  });
});
