// The "gpt-tokenizer" backend: the rank tables that ship in gpt-tokenizer, counted by ctxpipe's own
// BytePairCounter. gpt-tokenizer's encoder itself is not used: it splits text with JavaScript's `\s`
// and cannot find the tokens that begin with a byte-order mark (it decodes byte keys with a
// TextDecoder that drops a leading BOM), so text containing U+FEFF was counted wrong.
// Loaded with require() on the first count, once per process and encoding.
import { createRequire } from "node:module";
import { BytePairCounter, type BytePairTables } from "../bpe/byte-pair-counter.js";
import { TokenTable } from "../bpe/token-table.js";
import type { EncodingName } from "../encodings/encoding-name.js";
import { pretokenizePattern } from "../encodings/pretokenize-pattern.js";

/** gpt-tokenizer's table: index = rank; a token is its text, or its bytes when they are not valid UTF-8 text. */
export type RankTable = ReadonlyArray<string | ReadonlyArray<number> | undefined>;

const require = createRequire(import.meta.url);
const counters = new Map<EncodingName, BytePairCounter>();

export function loadRankTable(encoding: EncodingName): RankTable {
  // Static paths, so bundlers that follow require() can see them.
  const loaded: { default: RankTable } =
    encoding === "o200k_base" ? require("gpt-tokenizer/bpeRanks/o200k_base") : require("gpt-tokenizer/bpeRanks/cl100k_base");
  return loaded.default;
}

export function toBytePairTables(table: RankTable): BytePairTables {
  const texts: string[] = [];
  const ranks: number[] = [];
  const byteTokens = new Map<string, number>();
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const encoder = new TextEncoder();
  for (let rank = 0; rank < table.length; rank++) {
    const token = table[rank];
    if (token === undefined) continue;
    if (typeof token === "string") {
      texts.push(token);
      ranks.push(rank);
      continue;
    }
    // Bytes that survive a decode and re-encode are valid UTF-8: the tokens that begin with a BOM.
    // They are text, looked up by their text (BOM included) like every other token.
    const bytes = Uint8Array.from(token);
    const text = decoder.decode(bytes);
    const encoded = encoder.encode(text);
    if (encoded.length === bytes.length && encoded.every((byte, index) => byte === bytes[index])) {
      texts.push(text);
      ranks.push(rank);
    } else {
      byteTokens.set(String.fromCharCode(...bytes), rank);
    }
  }
  return { textTokens: new TokenTable(texts, ranks), byteTokens };
}

export function loadGptTokenizerCounter(encoding: EncodingName): BytePairCounter {
  let counter = counters.get(encoding);
  if (counter === undefined) {
    counter = new BytePairCounter(pretokenizePattern(encoding), toBytePairTables(loadRankTable(encoding)));
    counters.set(encoding, counter);
  }
  return counter;
}
