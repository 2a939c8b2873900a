import { describe, expectTypeOf, test } from "vitest";
import { type EncodingName, type ModelDefaults, type ModelDefaultsOptions, type ModelInfo, modelDefaults } from "../index.js";

describe("modelDefaults types", () => {
  test("takes the build's two figures and a fallback encoding", () => {
    expectTypeOf<ModelDefaultsOptions>().toEqualTypeOf<{ readonly maxTokens?: number; readonly reserveOutputTokens?: number; readonly fallback?: EncodingName }>();
    expectTypeOf(modelDefaults).parameters.toEqualTypeOf<[model: string, options?: ModelDefaultsOptions | undefined]>();
  });

  test("returns the figures with where each came from", () => {
    expectTypeOf(modelDefaults("gpt-4o")).toEqualTypeOf<ModelDefaults>();
    expectTypeOf<ModelDefaults["info"]>().toEqualTypeOf<ModelInfo | undefined>();
    expectTypeOf<ModelDefaults["sources"]>().toEqualTypeOf<{ readonly maxTokens: "option" | "registry"; readonly reserveOutputTokens: "option" | "registry" }>();
    // The two figures a build takes.
    expectTypeOf<Pick<ModelDefaults, "maxTokens" | "reserveOutputTokens">>().toEqualTypeOf<{ readonly maxTokens: number; readonly reserveOutputTokens: number }>();
  });
});
