import type { Tokenizer } from "./tokenizer.js";

/** Duck-typed check, so tokenizers from another copy of the package (or written by hand) are accepted. */
export function isTokenizer(value: unknown): value is Tokenizer {
  const candidate = value as Partial<Tokenizer> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.count === "function" && typeof candidate.name === "string" && typeof candidate.exact === "boolean";
}
