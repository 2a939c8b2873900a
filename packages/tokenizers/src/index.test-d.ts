import { estimatingTokenizer, type PipelinePlugin, type Tokenizer, type TokenizerRequest } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";
import {
  type ApproximateTokenizer,
  createTokenizer,
  type EncodingName,
  type ExactTokenizer,
  getEncoding,
  type ModelInfo,
  type ModelProvider,
  type ModelTokenizer,
  MODELS,
  resolveModel,
  type TokenizerBackend,
  TokenCountMemo,
  type TokenCountRecord,
  TokenizerPlugin,
  type TokenUsage,
  type UnknownModelError,
} from "./index.js";

describe("public types", () => {
  test("every tokenizer is a core Tokenizer", () => {
    expectTypeOf(getEncoding("o200k_base")).toEqualTypeOf<ExactTokenizer>();
    expectTypeOf<ExactTokenizer>().toExtend<Tokenizer>();
    expectTypeOf<ApproximateTokenizer>().toExtend<Tokenizer>();
    expectTypeOf(createTokenizer("gpt-4o")).toEqualTypeOf<ModelTokenizer>();
    expectTypeOf<ModelTokenizer>().toExtend<Tokenizer>();
  });

  test("exact tells exact and approximate tokenizers apart", () => {
    const tokenizer = createTokenizer("claude-sonnet-4");
    if (tokenizer.exact) {
      expectTypeOf(tokenizer).toEqualTypeOf<ExactTokenizer>();
      expectTypeOf(tokenizer.backend).toEqualTypeOf<TokenizerBackend>();
    } else {
      expectTypeOf(tokenizer).toEqualTypeOf<ApproximateTokenizer>();
      expectTypeOf(tokenizer.calibrate).parameter(0).toEqualTypeOf<TokenUsage>();
      expectTypeOf(tokenizer.calibrate({ counted: 1, reported: 1 })).toEqualTypeOf<ApproximateTokenizer>();
    }
  });

  test("encodings and backends are closed sets", () => {
    expectTypeOf<EncodingName>().toEqualTypeOf<"o200k_base" | "cl100k_base">();
    expectTypeOf<TokenizerBackend>().toEqualTypeOf<"gpt-tokenizer" | "js-tiktoken">();
    expectTypeOf(getEncoding).parameter(0).toEqualTypeOf<EncodingName>();
    // @ts-expect-error: not an encoding ctxpipe counts
    getEncoding("p50k_base");
    // @ts-expect-error: not a backend
    getEncoding("o200k_base", { backend: "wasm" });
    // @ts-expect-error: fallback must be an encoding
    createTokenizer("my-model", { fallback: "llama" });
  });

  test("the registry", () => {
    expectTypeOf(resolveModel("gpt-4o")).toEqualTypeOf<ModelInfo>();
    expectTypeOf(MODELS).toEqualTypeOf<ReadonlyArray<ModelInfo>>();
    expectTypeOf<ModelInfo>().toEqualTypeOf<{
      readonly model: string;
      readonly provider: ModelProvider;
      readonly encoding: EncodingName;
      readonly exact: boolean;
      readonly contextWindow: number;
      readonly maxInputTokens: number;
      readonly maxOutputTokens: number;
    }>();
    expectTypeOf<ModelProvider>().toEqualTypeOf<"openai" | "anthropic" | "google">();
    expectTypeOf<UnknownModelError["model"]>().toEqualTypeOf<string>();
    expectTypeOf<UnknownModelError["suggestions"]>().toEqualTypeOf<ReadonlyArray<string>>();
  });

  test("a memo counts like the tokenizer it wraps, and its records are plain data", () => {
    expectTypeOf(new TokenCountMemo(getEncoding("o200k_base")).tokenizer).toEqualTypeOf<ExactTokenizer>();
    expectTypeOf(new TokenCountMemo(createTokenizer("gpt-4o")).tokenizer).toEqualTypeOf<ModelTokenizer>();
    expectTypeOf(new TokenCountMemo(getEncoding("o200k_base")).takeNew()).toEqualTypeOf<TokenCountRecord[]>();
    expectTypeOf<TokenCountRecord>().toEqualTypeOf<{ readonly encoding: string; readonly key: string; readonly tokens: number }>();
    // @ts-expect-error: core's estimate is not an encoding to persist counts of
    new TokenCountMemo(estimatingTokenizer);
  });

  test("the plugin is a pipeline plugin whose tap answers a TokenizerRequest", () => {
    expectTypeOf(new TokenizerPlugin()).toExtend<PipelinePlugin>();
    expectTypeOf<TokenizerRequest>().toEqualTypeOf<{ readonly model: string | undefined }>();
    // @ts-expect-error: unknown option
    new TokenizerPlugin({ model: "gpt-4o" });
  });
});
