import { CtxpipeError, createPipeline, ERROR_CODES, importStoredMessages, PluginOptionsError } from "@ctxpipe/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { UnknownModelError } from "../errors/unknown-model-error.js";
import { TokenizerPlugin } from "../plugins/tokenizer-plugin.js";
import { DEFAULT_OUTPUT_RESERVE_CAP, defaultOutputReserve, type ModelDefaultsOptions, modelDefaults, outputReserveReason } from "./model-defaults.js";
import { findModel, MODELS, resolveModel } from "./resolve-model.js";

const items = importStoredMessages([{ id: "m1", role: "user", content: "How many tokens may this prompt use?", createdAt: "2026-03-02T09:00:00Z" }]);

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("defaultOutputReserve", () => {
  test.for([
    ["gpt-4o", 16_384],
    ["gpt-4o-2024-05-13", 4_096],
    ["gpt-4.1", 32_000],
    ["gpt-5", 32_000],
    ["o1-mini", 32_000],
    ["gpt-4", 2_048],
    ["gpt-3.5-turbo", 4_096],
    ["gpt-3.5-turbo-0301", 1_024],
    ["claude-opus-4", 32_000],
    ["claude-sonnet-4", 32_000],
    ["claude-3-5-haiku", 8_192],
    ["gemini-2.0-flash", 8_192],
    ["gemini-2.5-pro", 32_000],
  ] as const)("%s: %i", ([model, reserve]) => {
    expect(defaultOutputReserve(resolveModel(model))).toBe(reserve);
  });

  test("is the output limit, capped, for every known model, and leaves the prompt at least three quarters of the window", () => {
    for (const info of MODELS) {
      const reserve = defaultOutputReserve(info);
      expect(reserve).toBe(Math.min(info.maxOutputTokens, DEFAULT_OUTPUT_RESERVE_CAP, Math.floor(info.contextWindow / 4)));
      expect(reserve).toBeLessThanOrEqual(info.maxOutputTokens);
      expect(info.contextWindow - reserve).toBeGreaterThanOrEqual((info.contextWindow * 3) / 4);
    }
  });
});

describe("modelDefaults", () => {
  test.for([
    // The window, less the answer's reserve.
    ["gpt-4o", { maxTokens: 128_000, reserveOutputTokens: 16_384, inputBudget: 111_616 }],
    // GPT-5 accepts 272,000 input tokens of its 400,000: maxTokens is lowered so that the build agrees.
    ["gpt-5", { maxTokens: 304_000, reserveOutputTokens: 32_000, inputBudget: 272_000 }],
    ["gpt-5-2025-08-07", { maxTokens: 304_000, reserveOutputTokens: 32_000, inputBudget: 272_000 }],
    // Its output limit is the whole window: a quarter of it is kept for the answer.
    ["gpt-4", { maxTokens: 8_192, reserveOutputTokens: 2_048, inputBudget: 6_144 }],
    ["gpt-3.5-turbo-0613", { maxTokens: 4_096, reserveOutputTokens: 1_024, inputBudget: 3_072 }],
    ["claude-sonnet-4-20250514", { maxTokens: 200_000, reserveOutputTokens: 32_000, inputBudget: 168_000 }],
    ["gemini-2.5-pro", { maxTokens: 1_048_576, reserveOutputTokens: 32_000, inputBudget: 1_016_576 }],
    ["gpt-3.5-turbo", { maxTokens: 16_385, reserveOutputTokens: 4_096, inputBudget: 12_289 }],
  ] as const)("%s by default", ([model, figures]) => {
    expect(modelDefaults(model)).toEqual({ model, info: findModel(model), exact: findModel(model)?.exact, ...figures, sources: { maxTokens: "registry", reserveOutputTokens: "registry" } });
  });

  test.for([
    ["gpt-4o", { maxTokens: 80_000 }, { maxTokens: 80_000, reserveOutputTokens: 16_384, inputBudget: 63_616 }, { maxTokens: "option", reserveOutputTokens: "registry" }],
    // A smaller budget keeps at most a quarter of it for the answer.
    ["gpt-4o", { maxTokens: 50_000 }, { maxTokens: 50_000, reserveOutputTokens: 12_500, inputBudget: 37_500 }, { maxTokens: "option", reserveOutputTokens: "registry" }],
    ["gpt-4o", { maxTokens: 2_000 }, { maxTokens: 2_000, reserveOutputTokens: 500, inputBudget: 1_500 }, { maxTokens: "option", reserveOutputTokens: "registry" }],
    ["gpt-4o", { maxTokens: 3 }, { maxTokens: 3, reserveOutputTokens: 0, inputBudget: 3 }, { maxTokens: "option", reserveOutputTokens: "registry" }],
    ["gpt-4o", { reserveOutputTokens: 0 }, { maxTokens: 128_000, reserveOutputTokens: 0, inputBudget: 128_000 }, { maxTokens: "registry", reserveOutputTokens: "option" }],
    ["gpt-4o", { maxTokens: 2_000, reserveOutputTokens: 1_500 }, { maxTokens: 2_000, reserveOutputTokens: 1_500, inputBudget: 500 }, { maxTokens: "option", reserveOutputTokens: "option" }],
    // A reserve above the output limit is the caller's to choose.
    ["gpt-4", { reserveOutputTokens: 8_000 }, { maxTokens: 8_192, reserveOutputTokens: 8_000, inputBudget: 192 }, { maxTokens: "registry", reserveOutputTokens: "option" }],
    // The whole GPT-5 window asked for: the input limit still holds.
    ["gpt-5", { maxTokens: 400_000 }, { maxTokens: 304_000, reserveOutputTokens: 32_000, inputBudget: 272_000 }, { maxTokens: "option", reserveOutputTokens: "registry" }],
    ["gpt-5", { reserveOutputTokens: 128_000 }, { maxTokens: 400_000, reserveOutputTokens: 128_000, inputBudget: 272_000 }, { maxTokens: "registry", reserveOutputTokens: "option" }],
    // A known model with a fallback: the fallback is not needed.
    ["gpt-4o", { fallback: "cl100k_base" }, { maxTokens: 128_000, reserveOutputTokens: 16_384, inputBudget: 111_616 }, { maxTokens: "registry", reserveOutputTokens: "registry" }],
  ] as const)("%s with %j", ([model, options, figures, sources]) => {
    expect(modelDefaults(model, options)).toEqual({ model, info: findModel(model), exact: true, ...figures, sources });
  });

  test.for([
    [{ fallback: "o200k_base", maxTokens: 32_000 }, { maxTokens: 32_000, reserveOutputTokens: 8_000, inputBudget: 24_000 }, { maxTokens: "option", reserveOutputTokens: "registry" }],
    [{ fallback: "o200k_base", maxTokens: 1_000_000 }, { maxTokens: 1_000_000, reserveOutputTokens: 32_000, inputBudget: 968_000 }, { maxTokens: "option", reserveOutputTokens: "registry" }],
    [{ fallback: "cl100k_base", maxTokens: 32_000, reserveOutputTokens: 0 }, { maxTokens: 32_000, reserveOutputTokens: 0, inputBudget: 32_000 }, { maxTokens: "option", reserveOutputTokens: "option" }],
  ] as const)("an unknown model with %j is counted with the fallback, inexact", ([options, figures, sources]) => {
    expect(modelDefaults("my-local-model", options)).toEqual({ model: "my-local-model", info: undefined, exact: false, ...figures, sources });
  });

  test.for([
    ["gpt-4o", {}, "the output limit of gpt-4o"],
    ["gpt-5", {}, "the output limit of gpt-5, capped at 32,000"],
    ["gpt-4", {}, "a quarter of the 8,192-token context window of gpt-4, whose output limit is 8,192"],
    ["gpt-4o", { maxTokens: 2_000 }, "a quarter of maxTokens 2,000"],
    ["gpt-4o", { reserveOutputTokens: 100 }, "given as reserveOutputTokens"],
    ["my-local-model", { fallback: "o200k_base", maxTokens: 32_000 }, "a quarter of maxTokens 32,000"],
    ["my-local-model", { fallback: "o200k_base", maxTokens: 200_000 }, "the cap of 32,000: no output limit is known for my-local-model"],
  ] as const)("the reserve of %s with %j is %j", ([model, options, reason]) => {
    expect(outputReserveReason(modelDefaults(model, options))).toBe(reason);
  });

  test("an unknown model without a fallback throws UnknownModelError with close names", () => {
    const error = thrown(() => modelDefaults("gpt4o"));
    expect(error).toBeInstanceOf(UnknownModelError);
    expect(error).toMatchObject({ code: ERROR_CODES.MODEL_UNKNOWN, model: "gpt4o", suggestions: ["gpt-4o", "gpt-4", "gpt-5"] });
  });

  test.for([
    ["gpt-4o", { maxTokens: 0 }, "✖ expected a whole number of at least 1, got 0\n  → at maxTokens"],
    ["gpt-4o", { maxTokens: 1.5 }, "✖ expected a whole number of at least 1, got 1.5\n  → at maxTokens"],
    ["gpt-4o", { maxTokens: "8000" }, '✖ expected a whole number of at least 1, got "8000"\n  → at maxTokens'],
    ["gpt-4o", { reserveOutputTokens: -1 }, "✖ expected a whole number of at least 0, got -1\n  → at reserveOutputTokens"],
    ["gpt-4o", { reserveOutputTokens: Number.NaN }, "✖ expected a whole number of at least 0, got NaN\n  → at reserveOutputTokens"],
    ["gpt-4o", { fallback: "p50k_base" }, '✖ expected one of "o200k_base" | "cl100k_base", got "p50k_base"\n  → at fallback'],
    ["gpt-4o", { maxTokens: 10, budget: 5 }, '✖ Unrecognized key: "budget" (known: maxTokens, reserveOutputTokens, fallback)'],
    ["gpt-4o", "big", '✖ options must be an object, got "big"'],
    ["  ", {}, '✖ expected a non-empty string, got "  "\n  → at model'],
    [
      "my-local-model",
      { fallback: "o200k_base" },
      '✖ the registry does not know the context window of "my-local-model", which is counted with the fallback encoding o200k_base: give maxTokens\n  → at maxTokens',
    ],
    [
      "my-local-model",
      { fallback: "o200k_base", maxTokens: 4_000, reserveOutputTokens: 4_000 },
      "✖ 4,000 tokens reserved for the answer leave no room for the prompt in maxTokens 4,000: must be less\n  → at reserveOutputTokens",
    ],
    ["gpt-4o", { maxTokens: 2_000, reserveOutputTokens: 2_500 }, "✖ 2,500 tokens reserved for the answer leave no room for the prompt in maxTokens 2,000: must be less\n  → at reserveOutputTokens"],
    ["gpt-4", { reserveOutputTokens: 8_192 }, "✖ 8,192 tokens reserved for the answer leave no room for the prompt in the 8,192-token context window of gpt-4: must be less\n  → at reserveOutputTokens"],
  ] as const)("%s with %j: PluginOptionsError", ([model, options, details]) => {
    const error = thrown(() => modelDefaults(model, options as ModelDefaultsOptions));
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect(CtxpipeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: "PluginOptionsError", code: ERROR_CODES.OPTIONS_INVALID, plugin: "modelDefaults()", message: `Invalid options for modelDefaults():\n${details}` });
  });

  test("the result is frozen", () => {
    const defaults = modelDefaults("gpt-4o");
    expect(Object.isFrozen(defaults)).toBe(true);
    expect(Object.isFrozen(defaults.sources)).toBe(true);
  });
});

describe("a build given modelDefaults' figures", () => {
  const pipeline = createPipeline({ plugins: [new TokenizerPlugin()] });

  // Core lets the prompt use maxTokens − reserveOutputTokens; the input budget must be exactly that.
  test.for(MODELS.map((info) => [info.model] as const))("%s: the prompt may use inputBudget", async ([model]) => {
    const defaults = modelDefaults(model);
    const result = await pipeline.build(items, { model, maxTokens: defaults.maxTokens, reserveOutputTokens: defaults.reserveOutputTokens });
    expect(result.report.budget).toEqual({
      maxTokens: defaults.maxTokens,
      reserveOutputTokens: defaults.reserveOutputTokens,
      available: defaults.inputBudget,
      used: result.tokenCount,
      attempts: 1,
    });
    // Given the reserve alone, core takes maxTokens from the registry's window the same way.
    const reserveAlone = await pipeline.build(items, { model, reserveOutputTokens: defaults.reserveOutputTokens });
    expect(reserveAlone.report.budget?.available).toBe(defaults.inputBudget);
  });
});

describe("modelDefaults properties", () => {
  const knownModel = fc.constantFrom(...MODELS);

  test("for any known model and valid options: the prompt has room, within the budget and the input limit", () => {
    fc.assert(
      fc.property(
        knownModel,
        fc.option(fc.integer({ min: 1, max: 3_000_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 300_000 }), { nil: undefined }),
        (info, maxTokens, reserveOutputTokens) => {
          const options = { ...(maxTokens === undefined ? {} : { maxTokens }), ...(reserveOutputTokens === undefined ? {} : { reserveOutputTokens }) };
          const requested = maxTokens ?? info.contextWindow;
          // Only a given reserve can leave the prompt no room; a default never does.
          fc.pre(reserveOutputTokens === undefined || reserveOutputTokens < requested);
          const reserve = reserveOutputTokens ?? Math.min(defaultOutputReserve(info), Math.floor(requested / 4));
          const defaults = modelDefaults(info.model, options);
          expect(defaults.inputBudget).toBeGreaterThan(0);
          expect(defaults.inputBudget).toBeLessThanOrEqual(defaults.maxTokens - defaults.reserveOutputTokens);
          expect(defaults.inputBudget).toBeLessThanOrEqual(info.maxInputTokens);
          expect(defaults.inputBudget).toBe(Math.min(requested - reserve, info.maxInputTokens));
          expect(defaults.reserveOutputTokens).toBe(reserve);
          expect(defaults.maxTokens).toBeLessThanOrEqual(requested);
          if (reserveOutputTokens === undefined) {
            expect(defaults.reserveOutputTokens).toBeLessThanOrEqual(info.maxOutputTokens);
            expect(defaults.reserveOutputTokens).toBeLessThanOrEqual(DEFAULT_OUTPUT_RESERVE_CAP);
            expect(defaults.reserveOutputTokens * 4).toBeLessThanOrEqual(requested);
          }
        },
      ),
    );
  });

  test("a given reserve that leaves the prompt no room is refused, never answered with a budget of 0 or less", () => {
    fc.assert(
      fc.property(knownModel, fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }), fc.integer({ min: 0, max: 2_500_000 }), (info, maxTokens, reserveOutputTokens) => {
        fc.pre(reserveOutputTokens >= (maxTokens ?? info.contextWindow));
        expect(() => modelDefaults(info.model, { ...(maxTokens === undefined ? {} : { maxTokens }), reserveOutputTokens })).toThrow(PluginOptionsError);
      }),
    );
  });
});
