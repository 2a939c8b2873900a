// A deterministic tokenizer for tests: one token per word or punctuation mark. Flagged exact so that
// budget logic behaves as it would with a real exact tokenizer, without loading any rank data.
import type { Tokenizer } from "../spec/tokenizer.js";

const TOKEN = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

export const wordTokenizer: Tokenizer = Object.freeze({
  specificationVersion: "v1",
  name: "words",
  exact: true,
  count(text: string): number {
    let count = 0;
    TOKEN.lastIndex = 0;
    while (TOKEN.exec(text) !== null) count++;
    return count;
  },
});
