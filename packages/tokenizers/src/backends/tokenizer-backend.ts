// The implementations an exact tokenizer can count with. Both give the same counts (the tests hold
// them to tiktoken's Rust implementation); they differ in speed, start-up time and memory.
/** `"gpt-tokenizer"`: gpt-tokenizer's rank tables counted by ctxpipe's own counter; `"js-tiktoken"`: js-tiktoken's encoder. */
export const TOKENIZER_BACKENDS = ["gpt-tokenizer", "js-tiktoken"] as const;

export type TokenizerBackend = (typeof TOKENIZER_BACKENDS)[number];

/** The fastest exact backend measured (docs/tokenizers.md has the figures; `pnpm bench` prints them). */
export const DEFAULT_BACKEND: TokenizerBackend = "gpt-tokenizer";

export function isTokenizerBackend(value: unknown): value is TokenizerBackend {
  return (TOKENIZER_BACKENDS as ReadonlyArray<unknown>).includes(value);
}
