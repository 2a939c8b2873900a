// The models ctxpipe knows, with the figures each provider publishes in its model pages (OpenAI's
// model pages, also in gpt-tokenizer 4.0.0's model data; Anthropic's models overview; Google's
// Gemini API model pages). A family name covers its dated snapshots (see resolve-model.ts); a
// snapshot whose limits differ is listed on its own.
import type { EncodingName } from "../encodings/encoding-name.js";
import type { ModelInfo, ModelProvider } from "./model-info.js";

export interface KnownModel extends ModelInfo {
  /** Other names of the same model (the provider's aliases), matched exactly. */
  readonly aliases: ReadonlyArray<string>;
}

interface Limits {
  readonly maxInputTokens?: number;
  readonly aliases?: ReadonlyArray<string>;
}

function known(provider: ModelProvider, encoding: EncodingName, model: string, contextWindow: number, maxOutputTokens: number, limits: Limits = {}): KnownModel {
  return Object.freeze({
    model,
    provider,
    encoding,
    exact: provider === "openai",
    contextWindow,
    maxInputTokens: limits.maxInputTokens ?? contextWindow,
    maxOutputTokens,
    aliases: Object.freeze([...(limits.aliases ?? [])]),
  });
}

const openai = (encoding: EncodingName, model: string, contextWindow: number, maxOutputTokens: number, limits?: Limits) =>
  known("openai", encoding, model, contextWindow, maxOutputTokens, limits);
// Claude and Gemini have no public local tokenizer; their counts are approximated from o200k_base.
const anthropic = (model: string, contextWindow: number, maxOutputTokens: number, limits?: Limits) =>
  known("anthropic", "o200k_base", model, contextWindow, maxOutputTokens, limits);
const google = (model: string, contextWindow: number, maxOutputTokens: number, limits?: Limits) =>
  known("google", "o200k_base", model, contextWindow, maxOutputTokens, limits);

export const KNOWN_MODELS: ReadonlyArray<KnownModel> = Object.freeze([
  // OpenAI, o200k_base
  openai("o200k_base", "gpt-4o", 128_000, 16_384),
  openai("o200k_base", "gpt-4o-2024-05-13", 128_000, 4_096),
  openai("o200k_base", "gpt-4o-mini", 128_000, 16_384),
  openai("o200k_base", "chatgpt-4o-latest", 128_000, 16_384),
  openai("o200k_base", "gpt-4.5-preview", 128_000, 16_384),
  openai("o200k_base", "gpt-4.1", 1_047_576, 32_768),
  openai("o200k_base", "gpt-4.1-mini", 1_047_576, 32_768),
  openai("o200k_base", "gpt-4.1-nano", 1_047_576, 32_768),
  openai("o200k_base", "gpt-5", 400_000, 128_000, { maxInputTokens: 272_000 }),
  openai("o200k_base", "gpt-5-mini", 400_000, 128_000, { maxInputTokens: 272_000 }),
  openai("o200k_base", "gpt-5-nano", 400_000, 128_000, { maxInputTokens: 272_000 }),
  openai("o200k_base", "gpt-5-chat-latest", 128_000, 16_384),
  openai("o200k_base", "gpt-5-pro", 400_000, 272_000),
  openai("o200k_base", "gpt-5.1", 400_000, 128_000),
  openai("o200k_base", "gpt-5.2", 400_000, 128_000),
  openai("o200k_base", "gpt-5.2-pro", 400_000, 128_000),
  openai("o200k_base", "gpt-5.4", 1_050_000, 128_000),
  openai("o200k_base", "gpt-5.4-pro", 1_050_000, 128_000),
  openai("o200k_base", "gpt-5.4-mini", 400_000, 128_000, { maxInputTokens: 272_000 }),
  openai("o200k_base", "gpt-5.4-nano", 400_000, 128_000, { maxInputTokens: 272_000 }),
  openai("o200k_base", "gpt-5.5", 1_050_000, 128_000),
  openai("o200k_base", "gpt-5.5-pro", 1_050_000, 128_000),
  openai("o200k_base", "o1", 200_000, 100_000),
  openai("o200k_base", "o1-pro", 200_000, 100_000),
  openai("o200k_base", "o1-mini", 128_000, 65_536),
  openai("o200k_base", "o1-preview", 128_000, 32_768),
  openai("o200k_base", "o3", 200_000, 100_000),
  openai("o200k_base", "o3-pro", 200_000, 100_000),
  openai("o200k_base", "o3-mini", 200_000, 100_000),
  openai("o200k_base", "o4-mini", 200_000, 100_000),
  // OpenAI, cl100k_base
  openai("cl100k_base", "gpt-4", 8_192, 8_192),
  openai("cl100k_base", "gpt-4-32k", 32_768, 8_192),
  openai("cl100k_base", "gpt-4-turbo", 128_000, 4_096, { aliases: ["gpt-4-turbo-preview", "gpt-4-1106-preview", "gpt-4-0125-preview"] }),
  openai("cl100k_base", "gpt-3.5-turbo", 16_385, 4_096),
  openai("cl100k_base", "gpt-3.5-turbo-16k", 16_385, 4_096),
  openai("cl100k_base", "gpt-3.5-turbo-0301", 4_096, 4_096),
  openai("cl100k_base", "gpt-3.5-turbo-0613", 4_096, 4_096),
  // Anthropic
  anthropic("claude-3-haiku", 200_000, 4_096),
  anthropic("claude-3-opus", 200_000, 4_096),
  anthropic("claude-3-5-haiku", 200_000, 8_192),
  anthropic("claude-3-5-sonnet", 200_000, 8_192),
  anthropic("claude-3-7-sonnet", 200_000, 64_000),
  anthropic("claude-sonnet-4", 200_000, 64_000, { aliases: ["claude-sonnet-4-0"] }),
  anthropic("claude-opus-4", 200_000, 32_000, { aliases: ["claude-opus-4-0"] }),
  anthropic("claude-opus-4-1", 200_000, 32_000),
  anthropic("claude-sonnet-4-5", 200_000, 64_000),
  anthropic("claude-haiku-4-5", 200_000, 64_000),
  anthropic("claude-opus-4-5", 200_000, 64_000),
  anthropic("claude-sonnet-4-6", 1_000_000, 128_000),
  anthropic("claude-opus-4-6", 1_000_000, 128_000),
  // Google
  google("gemini-1.5-pro", 2_097_152, 8_192),
  google("gemini-1.5-flash", 1_048_576, 8_192),
  google("gemini-1.5-flash-8b", 1_048_576, 8_192),
  google("gemini-2.0-flash", 1_048_576, 8_192),
  google("gemini-2.0-flash-lite", 1_048_576, 8_192),
  google("gemini-2.5-pro", 1_048_576, 65_536),
  google("gemini-2.5-flash", 1_048_576, 65_536),
  google("gemini-2.5-flash-lite", 1_048_576, 65_536),
  google("gemini-3-pro-preview", 1_048_576, 65_536),
  google("gemini-3.1-pro-preview", 1_048_576, 65_536),
]);
