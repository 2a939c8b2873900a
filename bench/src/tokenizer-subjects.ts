// The tokenizers the benchmark compares, each loaded the way an application would load it, counting
// o200k_base tokens with text that looks like a special token treated as plain text (as OpenAI does).
export const TOKENIZER_SUBJECTS = ["ctxpipe-gpt-tokenizer", "ctxpipe-js-tiktoken", "gpt-tokenizer", "js-tiktoken"] as const;

export type TokenizerSubject = (typeof TOKENIZER_SUBJECTS)[number];

export const SUBJECT_LABELS: Readonly<Record<TokenizerSubject, string>> = {
  "ctxpipe-gpt-tokenizer": "@ctxpipe/tokenizers, gpt-tokenizer backend (default)",
  "ctxpipe-js-tiktoken": "@ctxpipe/tokenizers, js-tiktoken backend",
  "gpt-tokenizer": "gpt-tokenizer 4.0.0 countTokens, used directly",
  "js-tiktoken": "js-tiktoken 1.0.21 lite + o200k ranks, used directly",
};

export function isTokenizerSubject(value: unknown): value is TokenizerSubject {
  return (TOKENIZER_SUBJECTS as ReadonlyArray<unknown>).includes(value);
}

/** Imports the subject and returns its count function; the encoding data loads on its first call at the latest. */
export async function loadTokenizerSubject(subject: TokenizerSubject): Promise<(text: string) => number> {
  switch (subject) {
    case "ctxpipe-gpt-tokenizer":
    case "ctxpipe-js-tiktoken": {
      const { getEncoding } = await import("@ctxpipe/tokenizers");
      const tokenizer = getEncoding("o200k_base", { backend: subject === "ctxpipe-gpt-tokenizer" ? "gpt-tokenizer" : "js-tiktoken" });
      return tokenizer.count;
    }
    case "gpt-tokenizer": {
      const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
      // An empty disallowed set: special-token text is counted as text instead of throwing.
      const options = { disallowedSpecial: new Set<string>() };
      return (text) => countTokens(text, options);
    }
    case "js-tiktoken": {
      const [{ Tiktoken }, { default: ranks }] = await Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]);
      const encoder = new Tiktoken(ranks);
      return (text) => encoder.encode(text, [], []).length;
    }
  }
}
