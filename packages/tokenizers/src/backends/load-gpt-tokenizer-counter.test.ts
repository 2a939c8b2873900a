import { afterAll, expect, test } from "vitest";
import { openReferenceTokenizers } from "../__fixtures__/reference-tokenizer.js";
import { ENCODING_NAMES } from "../encodings/encoding-name.js";
import { loadRankTable, toBytePairTables } from "./load-gpt-tokenizer-counter.js";

const reference = openReferenceTokenizers();
afterAll(() => reference.free());

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function asText(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

const VOCABULARY_SIZES = { o200k_base: 199_998, cl100k_base: 100_256 };

// The data is gpt-tokenizer's; this holds it, token by token, to the reference's vocabulary, and
// checks that the tables built from it find every token under its rank (BOM tokens included).
test.for(ENCODING_NAMES)("%s: every token of the reference is found under its rank", (encoding) => {
  const table = loadRankTable(encoding);
  const { textTokens, byteTokens } = toBytePairTables(table);
  expect(table.length).toBe(VOCABULARY_SIZES[encoding]);
  expect(textTokens.size + byteTokens.size).toBe(VOCABULARY_SIZES[encoding]);
  const wrong: string[] = [];
  for (let rank = 0; rank < VOCABULARY_SIZES[encoding]; rank++) {
    const bytes = reference.tokenBytes(encoding, rank);
    const text = asText(bytes);
    const found = text === undefined ? byteTokens.get(latin1(bytes)) : textTokens.rankOf(text, 0, text.length);
    if (found !== rank) wrong.push(`${rank}: ${JSON.stringify(text ?? [...bytes])} → ${found}`);
  }
  expect(wrong).toEqual([]);
});

test("the tokens that begin with a byte-order mark are looked up as text, BOM included", () => {
  const { textTokens } = toBytePairTables(loadRankTable("o200k_base"));
  for (const text of ["\ufeff", "\ufeffusing", "\ufeffnamespace", "\ufeff\ufeff"]) {
    expect(textTokens.rankOf(text, 0, text.length), JSON.stringify(text)).toBeGreaterThanOrEqual(0);
  }
  // Without the BOM these are other tokens: a decoder that drops the BOM would find the wrong rank.
  expect(textTokens.rankOf("using", 0, 5)).not.toBe(textTokens.rankOf("\ufeffusing", 0, 6));
});
