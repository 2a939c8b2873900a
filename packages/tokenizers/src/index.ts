// @ctxpipe/tokenizers: exact, offline token counts for OpenAI's o200k_base and cl100k_base, a model
// registry (context windows, output limits, encodings), flagged and calibratable approximations for
// Claude and Gemini, and a plugin that picks the tokenizer from the build's model.

// Exact tokenizers
export { DEFAULT_BACKEND, TOKENIZER_BACKENDS, type TokenizerBackend } from "./backends/tokenizer-backend.js";
export { ENCODING_NAMES, type EncodingName } from "./encodings/encoding-name.js";
export type { ExactTokenizer } from "./exact-tokenizer.js";
export { type GetEncodingOptions, getEncoding } from "./get-encoding.js";

// Tokenizers for models
export type { ApproximateTokenizer, TokenUsage } from "./approximate/approximate-tokenizer.js";
export { DEFAULT_FACTORS, DEFAULT_SAFETY_MARGIN } from "./approximate/default-factors.js";
export { type CreateTokenizerOptions, createTokenizer, type ModelTokenizer } from "./create-tokenizer.js";
export { UnknownModelError } from "./errors/unknown-model-error.js";

// Persisted counts
export { COUNT_KEY_PATTERN, countKey } from "./memo/count-key.js";
export {
  DEFAULT_MEMO_MIN_LENGTH,
  type SkippedTokenCount,
  TokenCountMemo,
  type TokenCountLoad,
  type TokenCountMemoOptions,
  type TokenCountRecord,
} from "./memo/token-count-memo.js";
// Model registry
export type { ModelInfo, ModelProvider } from "./registry/model-info.js";
export { findModel, MODELS, resolveModel } from "./registry/resolve-model.js";
export {
  DEFAULT_OUTPUT_RESERVE_CAP,
  defaultOutputReserve,
  type ModelDefaultSource,
  type ModelDefaults,
  type ModelDefaultsOptions,
  modelDefaults,
  outputReserveReason,
} from "./registry/model-defaults.js";
export { type ModelBudget, type ModelBudgetErrors, type ModelBudgetOptions, resolveModelBudget } from "./registry/resolve-model-budget.js";

// Plugin
export { TokenizerPlugin, type TokenizerPluginOptions } from "./plugins/tokenizer-plugin.js";
