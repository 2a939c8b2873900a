// Counts the tokens of a text for one BPE encoding: the encoding's pre-tokenization pattern splits
// the text into pieces; a piece is one token (one table lookup: 96% of pieces in agent traffic) or
// is merged byte pair by byte pair. No token array is built, and counts of merged pieces are cached.
import { countMergedTokens } from "./count-merged-tokens.js";
import { PieceCountCache } from "./piece-count-cache.js";
import type { TokenTable } from "./token-table.js";

export interface BytePairTables {
  /** Tokens whose bytes are valid UTF-8, looked up by their text. */
  readonly textTokens: TokenTable;
  /** The other tokens (partial UTF-8 sequences), keyed by their bytes as a Latin-1 string. */
  readonly byteTokens: ReadonlyMap<string, number>;
}

/** Longer merged pieces are not cached: they are rare, and each would hold a long string. */
const CACHED_PIECE_LENGTH = 256;

const encoder = new TextEncoder();

export class BytePairCounter {
  readonly #pattern: RegExp;
  readonly #textTokens: TokenTable;
  readonly #byteTokens: ReadonlyMap<string, number>;
  readonly #pieceCounts = new PieceCountCache();

  /** `pattern` must match every character of any text (the encodings' patterns do), with flags g and u. */
  constructor(pattern: RegExp, tables: BytePairTables) {
    if (!pattern.global || !pattern.unicode) throw new TypeError("the pre-tokenization pattern needs the g and u flags");
    this.#pattern = pattern;
    this.#textTokens = tables.textTokens;
    this.#byteTokens = tables.byteTokens;
  }

  count(text: string): number {
    const pattern = this.#pattern;
    const textTokens = this.#textTokens;
    // test() moves lastIndex to the end of each piece without building a match array; pieces are
    // contiguous because the pattern matches every character. count() never re-enters itself, so
    // sharing the pattern's lastIndex is safe.
    pattern.lastIndex = 0;
    let start = 0;
    let total = 0;
    while (pattern.test(text)) {
      const end = pattern.lastIndex;
      total += textTokens.rankOf(text, start, end) >= 0 ? 1 : this.#countPiece(text, start, end);
      start = end;
    }
    return total;
  }

  #countPiece(text: string, start: number, end: number): number {
    const cacheable = end - start <= CACHED_PIECE_LENGTH;
    if (cacheable) {
      const cached = this.#pieceCounts.get(text, start, end);
      if (cached >= 0) return cached;
    }
    const piece = text.slice(start, end);
    const count = this.#mergePiece(piece);
    if (cacheable) this.#pieceCounts.set(piece, count);
    return count;
  }

  #mergePiece(piece: string): number {
    // A lone surrogate is sent as U+FFFD, the way UTF-8 encoding (and so the provider) sees it.
    const text = piece.isWellFormed() ? piece : piece.toWellFormed();
    const bytes = encoder.encode(text);
    // charAt[b] is the UTF-16 offset of the code point that starts at byte b, or -1 inside one. A byte
    // range that starts and ends on code points is valid UTF-8 and is looked up by its text.
    const charAt = new Int32Array(bytes.length + 1);
    let offset = 0;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index]!;
      if ((byte & 0xc0) === 0x80) {
        charAt[index] = -1;
        continue;
      }
      charAt[index] = offset;
      offset += byte >= 0xf0 ? 2 : 1;
    }
    charAt[bytes.length] = offset;
    const textTokens = this.#textTokens;
    const byteTokens = this.#byteTokens;
    return countMergedTokens(bytes.length, (start, end) => {
      const from = charAt[start]!;
      const to = charAt[end]!;
      if (from >= 0 && to >= 0) {
        const rank = textTokens.rankOf(text, from, to);
        return rank >= 0 ? rank : undefined;
      }
      return byteTokens.get(String.fromCharCode(...bytes.subarray(start, end)));
    });
  }
}
