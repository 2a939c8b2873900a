import { PluginOptionsError } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { MIXED_CORPUS } from "./__fixtures__/mixed-corpus.js";
import { createTokenizer } from "./create-tokenizer.js";
import { UnknownModelError } from "./errors/unknown-model-error.js";
import { getEncoding } from "./get-encoding.js";

const o200k = getEncoding("o200k_base");

describe("createTokenizer", () => {
  test.for([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-2024-08-06", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-3.5-turbo-0125", "cl100k_base"],
  ] as const)("%s gets the exact %s tokenizer", ([model, encoding]) => {
    expect(createTokenizer(model)).toBe(getEncoding(encoding));
    expect(createTokenizer(model, { backend: "js-tiktoken" })).toBe(getEncoding(encoding, { backend: "js-tiktoken" }));
  });

  test("Claude gets an approximation from o200k_base, flagged inexact", () => {
    const tokenizer = createTokenizer("claude-sonnet-4-20250514");
    expect(tokenizer).toMatchObject({
      exact: false,
      kind: "approximation",
      model: "claude-sonnet-4",
      name: 'o200k_base × 1.2 + 10% (approximation for "claude-sonnet-4")',
      factor: 1.2,
      safetyMargin: 0.1,
      base: o200k,
    });
    for (const { text } of MIXED_CORPUS) expect(tokenizer.count(text)).toBe(Math.ceil(o200k.count(text) * 1.2 * 1.1 - 1e-9) || 0);
  });

  test("Gemini gets an approximation too", () => {
    expect(createTokenizer("gemini-2.5-pro")).toMatchObject({ exact: false, name: 'o200k_base × 1.1 + 10% (approximation for "gemini-2.5-pro")' });
  });

  test("the margin and the starting factor are configurable", () => {
    const tokenizer = createTokenizer("claude-opus-4", { safetyMargin: 0, factor: 1 });
    expect(tokenizer.name).toBe('o200k_base (approximation for "claude-opus-4")');
    expect(tokenizer.count("The quick brown fox")).toBe(o200k.count("The quick brown fox"));
  });

  test("an unknown model without a fallback is an error", () => {
    expect(() => createTokenizer("my-model")).toThrow(UnknownModelError);
  });

  test("an unknown model with a fallback says so in its name and is inexact", () => {
    const tokenizer = createTokenizer("my-model", { fallback: "o200k_base" });
    expect(tokenizer).toMatchObject({ exact: false, kind: "fallback", model: "my-model", name: 'o200k_base + 10% (fallback for "my-model")', factor: 1 });
    expect(createTokenizer("my-model", { fallback: "cl100k_base", safetyMargin: 0 }).name).toBe('cl100k_base (fallback for "my-model")');
  });

  test("a fallback does not replace the registry for known models", () => {
    expect(createTokenizer("gpt-4", { fallback: "o200k_base" })).toBe(getEncoding("cl100k_base"));
    expect(createTokenizer("claude-3-5-haiku", { fallback: "cl100k_base" })).toMatchObject({ base: o200k });
  });

  test("the same arguments give the same tokenizer object, so core's count caches keep hitting", () => {
    expect(createTokenizer("claude-sonnet-4")).toBe(createTokenizer("claude-sonnet-4-0"));
    expect(createTokenizer("x", { fallback: "o200k_base" })).toBe(createTokenizer("x", { fallback: "o200k_base" }));
    expect(createTokenizer("claude-sonnet-4")).not.toBe(createTokenizer("claude-sonnet-4", { safetyMargin: 0.2 }));
  });

  test("counts nothing before the first count() call, so creating tokenizers is free", () => {
    // Laziness across processes is checked in lazy-loading.test.ts; here: no count, no throw, no work.
    expect(() => createTokenizer("gemini-2.0-flash", { backend: "js-tiktoken" })).not.toThrow();
  });

  test("rejects bad options, naming each field", () => {
    expect(() =>
      // @ts-expect-error: wrong types on purpose
      createTokenizer("claude-sonnet-4", { backend: "wasm", fallback: "p50k_base", safetyMargin: -1, factor: 0 }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [PluginOptionsError: Invalid options for createTokenizer():
      ✖ expected one of "gpt-tokenizer" | "js-tiktoken", got "wasm"
        → at backend
      ✖ expected one of "o200k_base" | "cl100k_base", got "p50k_base"
        → at fallback
      ✖ expected a number from 0 to 1, got -1
        → at safetyMargin
      ✖ expected a number from 0.25 to 4, got 0
        → at factor]
    `);
    // @ts-expect-error: a model name is required
    expect(() => createTokenizer(undefined)).toThrow(PluginOptionsError);
    expect(() => createTokenizer("  ")).toThrow(PluginOptionsError);
  });
});
