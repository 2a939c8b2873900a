import { CtxpipeError, ERROR_CODES } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { UnknownModelError } from "../errors/unknown-model-error.js";
import { findModel, MODELS, resolveModel } from "./resolve-model.js";

const summary = (name: string) => {
  const info = resolveModel(name);
  return `${info.model} ${info.provider} ${info.encoding} ${info.exact ? "exact" : "approximate"} ${info.contextWindow}/${info.maxInputTokens}/${info.maxOutputTokens}`;
};

describe("resolveModel", () => {
  test.for([
    ["gpt-4o", "gpt-4o openai o200k_base exact 128000/128000/16384"],
    ["gpt-4o-mini", "gpt-4o-mini openai o200k_base exact 128000/128000/16384"],
    ["chatgpt-4o-latest", "chatgpt-4o-latest openai o200k_base exact 128000/128000/16384"],
    ["gpt-4.1", "gpt-4.1 openai o200k_base exact 1047576/1047576/32768"],
    ["gpt-4.1-nano", "gpt-4.1-nano openai o200k_base exact 1047576/1047576/32768"],
    ["gpt-5", "gpt-5 openai o200k_base exact 400000/272000/128000"],
    ["gpt-5-mini", "gpt-5-mini openai o200k_base exact 400000/272000/128000"],
    ["gpt-5.4", "gpt-5.4 openai o200k_base exact 1050000/1050000/128000"],
    ["o1", "o1 openai o200k_base exact 200000/200000/100000"],
    ["o1-mini", "o1-mini openai o200k_base exact 128000/128000/65536"],
    ["o3", "o3 openai o200k_base exact 200000/200000/100000"],
    ["o3-mini", "o3-mini openai o200k_base exact 200000/200000/100000"],
    ["o4-mini", "o4-mini openai o200k_base exact 200000/200000/100000"],
    ["gpt-4", "gpt-4 openai cl100k_base exact 8192/8192/8192"],
    ["gpt-4-32k", "gpt-4-32k openai cl100k_base exact 32768/32768/8192"],
    ["gpt-4-turbo", "gpt-4-turbo openai cl100k_base exact 128000/128000/4096"],
    ["gpt-3.5-turbo", "gpt-3.5-turbo openai cl100k_base exact 16385/16385/4096"],
    ["gpt-3.5-turbo-16k", "gpt-3.5-turbo-16k openai cl100k_base exact 16385/16385/4096"],
    ["claude-3-5-sonnet", "claude-3-5-sonnet anthropic o200k_base approximate 200000/200000/8192"],
    ["claude-3-7-sonnet", "claude-3-7-sonnet anthropic o200k_base approximate 200000/200000/64000"],
    ["claude-sonnet-4", "claude-sonnet-4 anthropic o200k_base approximate 200000/200000/64000"],
    ["claude-opus-4", "claude-opus-4 anthropic o200k_base approximate 200000/200000/32000"],
    ["claude-3-5-haiku", "claude-3-5-haiku anthropic o200k_base approximate 200000/200000/8192"],
    ["claude-haiku-4-5", "claude-haiku-4-5 anthropic o200k_base approximate 200000/200000/64000"],
    ["claude-sonnet-4-6", "claude-sonnet-4-6 anthropic o200k_base approximate 1000000/1000000/128000"],
    ["gemini-1.5-pro", "gemini-1.5-pro google o200k_base approximate 2097152/2097152/8192"],
    ["gemini-2.0-flash", "gemini-2.0-flash google o200k_base approximate 1048576/1048576/8192"],
    ["gemini-2.5-pro", "gemini-2.5-pro google o200k_base approximate 1048576/1048576/65536"],
    ["gemini-2.5-flash", "gemini-2.5-flash google o200k_base approximate 1048576/1048576/65536"],
  ] as const)("%s", ([name, expected]) => {
    expect(summary(name)).toBe(expected);
  });

  test.for([
    ["gpt-4o-2024-08-06", "gpt-4o"],
    ["gpt-4o-mini-2024-07-18", "gpt-4o-mini"],
    ["gpt-4-0613", "gpt-4"],
    ["gpt-4-32k-0613", "gpt-4-32k"],
    ["gpt-3.5-turbo-0125", "gpt-3.5-turbo"],
    ["gpt-3.5-turbo-16k-0613", "gpt-3.5-turbo-16k"],
    ["gpt-4-turbo-2024-04-09", "gpt-4-turbo"],
    ["gpt-4-1106-preview", "gpt-4-turbo"],
    ["gpt-4.1-2025-04-14", "gpt-4.1"],
    ["gpt-5-2025-08-07", "gpt-5"],
    ["o1-2024-12-17", "o1"],
    ["o3-mini-2025-01-31", "o3-mini"],
    ["claude-3-5-sonnet-20241022", "claude-3-5-sonnet"],
    ["claude-3-5-sonnet-latest", "claude-3-5-sonnet"],
    ["claude-sonnet-4-20250514", "claude-sonnet-4"],
    ["claude-sonnet-4-0", "claude-sonnet-4"],
    ["claude-opus-4-1-20250805", "claude-opus-4-1"],
    ["gemini-2.0-flash-001", "gemini-2.0-flash"],
    ["gemini-1.5-pro-002", "gemini-1.5-pro"],
    ["models/gemini-2.5-pro", "gemini-2.5-pro"],
    ["openai/gpt-4o", "gpt-4o"],
    ["anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"],
    [" GPT-4o ", "gpt-4o"],
  ] as const)("%s resolves to %s", ([name, family]) => {
    expect(resolveModel(name).model).toBe(family);
  });

  test("a snapshot with its own limits is its own entry", () => {
    expect(resolveModel("gpt-4o-2024-05-13")).toMatchObject({ model: "gpt-4o-2024-05-13", maxOutputTokens: 4096 });
    expect(resolveModel("gpt-3.5-turbo-0613")).toMatchObject({ model: "gpt-3.5-turbo-0613", contextWindow: 4096 });
  });

  test("every known model resolves to itself, and its dated snapshots to it", () => {
    for (const info of MODELS) {
      expect(resolveModel(info.model)).toEqual(info);
      expect(resolveModel(`${info.model}-2030-01-01`).model).toBe(info.model);
    }
  });

  test("the registry lists each model once, with sane limits", () => {
    const names = MODELS.map((info) => info.model);
    expect(new Set(names).size).toBe(names.length);
    for (const info of MODELS) {
      expect(info.maxInputTokens).toBeLessThanOrEqual(info.contextWindow);
      expect(info.maxOutputTokens).toBeLessThanOrEqual(info.contextWindow);
      expect(info.exact).toBe(info.provider === "openai");
    }
  });

  test.for([
    // Names that merely contain a known name are not guessed.
    ["my-gpt-4o", []],
    ["gpt-4o-audio-preview", ["gpt-4o"]],
    ["gpt4o", ["gpt-4o", "gpt-4", "gpt-5"]],
    ["claude-sonet-4", ["claude-sonnet-4", "claude-sonnet-4-5", "claude-sonnet-4-6"]],
    ["llama-3.1-70b", []],
    ["gpt-4o-2024", ["gpt-4o"]],
    ["claude-3-opus-20240229-v1:0", ["claude-3-opus"]],
  ])("an unknown name %s throws UnknownModelError suggesting %j", ([name, suggestions]) => {
    let caught: unknown;
    try {
      resolveModel(name as string);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownModelError);
    expect(CtxpipeError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ name: "UnknownModelError", code: ERROR_CODES.MODEL_UNKNOWN, model: name, suggestions });
  });

  test("the error says what to do", () => {
    expect(() => resolveModel("gpt4o")).toThrowErrorMatchingInlineSnapshot(
      `[UnknownModelError: Unknown model "gpt4o": @ctxpipe/tokenizers does not know its tokenizer or context window. Close known names: gpt-4o, gpt-4, gpt-5. Pass a known model name, or a fallback encoding (createTokenizer(model, { fallback: "o200k_base" }), or the same option of TokenizerPlugin) to count with it; those counts are flagged inexact.]`,
    );
  });

  test("findModel returns undefined instead of throwing", () => {
    expect(findModel("gpt-4o-2024-11-20")?.model).toBe("gpt-4o");
    expect(findModel("nope")).toBeUndefined();
  });
});
