import { PluginOptionsError } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { UnknownModelError } from "../errors/unknown-model-error.js";
import { resolveModelBudget } from "./resolve-model-budget.js";

const errors = {
  owner: "my-integration",
  unknownModel: (name: string, close: string) => `unknown model "${name}".${close} Give maxTokens.`,
  noModel: "no model name and no maxTokens",
};

describe("resolveModelBudget", () => {
  test("a known model gets the registry's family name, window, reserve and one tokenizer object per model", () => {
    const budget = resolveModelBudget("gpt-4o-2024-08-06", {}, errors);
    expect(budget).toMatchObject({ model: "gpt-4o", maxTokens: 128_000, reserveOutputTokens: 16_384 });
    expect(budget.tokenizer.exact).toBe(true);
    // Renderers remember counts per tokenizer object: the same model gives the same object.
    expect(resolveModelBudget("gpt-4o-2024-08-06", {}, errors).tokenizer).toBe(budget.tokenizer);
  });

  test("the caller's budget, reserve and tokenizer win", () => {
    const tokenizer = wordTokenizer;
    expect(resolveModelBudget("gpt-4o", { maxTokens: 50_000, reserveOutputTokens: 1_000, tokenizer }, errors)).toEqual({ model: "gpt-4o", tokenizer, maxTokens: 50_000, reserveOutputTokens: 1_000 });
  });

  test("an unknown model with maxTokens is counted with the fallback encoding, flagged inexact", () => {
    const budget = resolveModelBudget("my-local-llm", { maxTokens: 32_000 }, errors);
    expect(budget.model).toBe("my-local-llm");
    expect(budget.maxTokens).toBe(32_000);
    expect(budget.tokenizer.exact).toBe(false);
  });

  test("an unknown model without maxTokens is an UnknownModelError in the caller's words, with close names", () => {
    const failure = (() => {
      try {
        resolveModelBudget("gpt-4oo", {}, errors);
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(UnknownModelError);
    expect((failure as UnknownModelError).model).toBe("gpt-4oo");
    expect((failure as Error).message).toMatch(/^unknown model "gpt-4oo"\. Close known names: .*gpt-4o.*\. Give maxTokens\.$/);
  });

  test("no model name and no maxTokens is a PluginOptionsError of the caller's", () => {
    expect(() => resolveModelBudget(undefined, {}, errors)).toThrow(PluginOptionsError);
    expect(() => resolveModelBudget(undefined, {}, errors)).toThrow(/my-integration[\s\S]*no model name and no maxTokens/);
  });

  test("a reserve that leaves the prompt no room is the caller's PluginOptionsError", () => {
    expect(() => resolveModelBudget("gpt-4o", { maxTokens: 1_000, reserveOutputTokens: 1_000 }, errors)).toThrow(PluginOptionsError);
    expect(() => resolveModelBudget("gpt-4o", { maxTokens: 1_000, reserveOutputTokens: 1_000 }, errors)).toThrow(/my-integration/);
  });
});
