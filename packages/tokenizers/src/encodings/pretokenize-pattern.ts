// The pre-tokenization patterns of tiktoken's o200k_base and cl100k_base, written for JavaScript.
// Two things differ from the Rust originals and are rewritten here:
// - JavaScript has no inline `(?i:...)` (before Node 23) and no possessive quantifiers, so the
//   contractions are spelled out in both cases and `?+`, `++` become `?`, `+` (same matches here,
//   because nothing after them could succeed on backtracking);
// - JavaScript's `\s` counts U+FEFF as whitespace and not U+0085, where Rust's `\s` is Unicode's
//   White_Space property (U+0085 in, U+FEFF out). Both JS tokenizers on npm inherit the difference,
//   so a byte-order mark or a NEL would be split differently from OpenAI's count.
import type { EncodingName } from "./encoding-name.js";

/** Unicode White_Space, as Rust's regex crate defines `\s`. */
const SPACE = String.raw`\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`;
const S = `[${SPACE}]`;
const NOT_S = `[^${SPACE}]`;
const CONTRACTION = `'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])`;
const UPPER = String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`;
const LOWER = String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`;
const OTHER_START = String.raw`[^\r\n\p{L}\p{N}]`;
const SYMBOLS = String.raw`[^${SPACE}\p{L}\p{N}]`;

const PATTERNS: Record<EncodingName, string> = {
  o200k_base: [
    `${OTHER_START}?${UPPER}*${LOWER}+(?:${CONTRACTION})?`,
    `${OTHER_START}?${UPPER}+${LOWER}*(?:${CONTRACTION})?`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?${SYMBOLS}+[\r\n/]*`,
    String.raw`${S}*[\r\n]+`,
    `${S}+(?!${NOT_S})`,
    `${S}+`,
  ].join("|"),
  cl100k_base: [
    CONTRACTION,
    String.raw`${OTHER_START}?\p{L}+`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?${SYMBOLS}+[\r\n]*`,
    `${S}+$`,
    String.raw`${S}*[\r\n]`,
    `${S}+(?!${NOT_S})`,
    S,
  ].join("|"),
};

/** The pattern's source, for engines that take a string (js-tiktoken's `pat_str`). */
export function pretokenizePatternSource(encoding: EncodingName): string {
  return PATTERNS[encoding];
}

/** A fresh global, Unicode-aware RegExp for the encoding. */
export function pretokenizePattern(encoding: EncodingName): RegExp {
  return new RegExp(PATTERNS[encoding], "gu");
}
