// Supplies the build's tokenizer from the model name in the build options: exact for OpenAI
// models, flagged approximations for Claude and Gemini, the fallback encoding (or UnknownModelError)
// for unknown names. Builds without a model fall through to the next tokenizer plugin (core's chars/4
// estimate by default) unless a default model is configured. Also tells core the model's context
// window, which is the budget of a build given reserveOutputTokens without maxTokens.
import { type PipelinePlugin, type PluginHost, STAGE } from "@ctxpipe/core";
import { CREATE_TOKENIZER_OPTION_CHECKS, type CreateTokenizerOptions, createTokenizer } from "../create-tokenizer.js";
import { checkOptions, finiteNumber, nonEmptyString } from "../options/check-options.js";
import { findModel } from "../registry/resolve-model.js";

const PLUGIN_NAME = "TokenizerPlugin";

export interface TokenizerPluginOptions extends CreateTokenizerOptions {
  /** The model to count for when a build names none. Default: none, so the next tokenizer plugin answers. */
  readonly defaultModel?: string;
  /** Position in the tokenizer hook (see STAGE). Default STAGE.DEFAULT, ahead of core's estimate. */
  readonly stage?: number;
}

/**
 * Answers core's `tokenizer` hook with `createTokenizer(model, options)` for the build's model, and
 * its `modelLimits` hook with the registry's context window and input limit for it (nothing for a
 * model the registry does not know, fallback or not).
 *
 * @example
 * const pipeline = createPipeline({ plugins: [new TokenizerPlugin({ fallback: "o200k_base" })] });
 * const result = await pipeline.build(items, { model: "gpt-4o" }); // result.tokenCountExact === true
 */
export class TokenizerPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #tokenizerOptions: CreateTokenizerOptions;
  readonly #defaultModel: string | undefined;
  readonly #stage: number;

  constructor(options: TokenizerPluginOptions = {}) {
    checkOptions(PLUGIN_NAME, options, { ...CREATE_TOKENIZER_OPTION_CHECKS, defaultModel: nonEmptyString, stage: finiteNumber });
    const { defaultModel, stage, ...tokenizerOptions } = options;
    this.#tokenizerOptions = Object.freeze(tokenizerOptions);
    this.#defaultModel = defaultModel;
    this.#stage = stage ?? STAGE.DEFAULT;
    // An unknown default model is a configuration mistake: report it now, not at the first build.
    if (defaultModel !== undefined) createTokenizer(defaultModel, this.#tokenizerOptions);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.tokenizer.tap({ name: PLUGIN_NAME, stage: this.#stage }, (request) => {
      const model = request.model ?? this.#defaultModel;
      // createTokenizer returns the same object for the same model, so core's count caches keep hitting.
      return model === undefined ? undefined : createTokenizer(model, this.#tokenizerOptions);
    });
    pipeline.hooks.modelLimits.tap({ name: PLUGIN_NAME, stage: this.#stage }, (request) => {
      const model = request.model ?? this.#defaultModel;
      const info = model === undefined ? undefined : findModel(model);
      return info === undefined ? undefined : { contextWindow: info.contextWindow, maxInputTokens: info.maxInputTokens };
    });
  }
}
