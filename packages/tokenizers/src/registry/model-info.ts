import type { EncodingName } from "../encodings/encoding-name.js";

export type ModelProvider = "openai" | "anthropic" | "google";

/** What the registry knows about a model family. */
export interface ModelInfo {
  /** The family's name, e.g. "gpt-4o" for "gpt-4o-2024-08-06". */
  readonly model: string;
  readonly provider: ModelProvider;
  /**
   * For OpenAI, the model's own encoding (counts are exact). For other providers, the encoding the
   * approximation is computed from.
   */
  readonly encoding: EncodingName;
  /** Whether local counts equal the provider's: true for OpenAI models only. */
  readonly exact: boolean;
  /**
   * The context window as the provider publishes it. OpenAI and Anthropic windows hold the prompt and
   * the reply together; Google publishes an input limit, which is what this is for Gemini.
   */
  readonly contextWindow: number;
  /** The most prompt tokens accepted: the window, or less where the provider says so (GPT-5: 272,000). */
  readonly maxInputTokens: number;
  /** The most tokens one reply can have. */
  readonly maxOutputTokens: number;
}
