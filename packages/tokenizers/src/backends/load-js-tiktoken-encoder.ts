// The "js-tiktoken" backend: js-tiktoken's own encoder and rank files (the choice of the design
// card), with one change: the pre-tokenization pattern is ctxpipe's, whose whitespace matches
// Rust's `\s` (see pretokenize-pattern.ts). Slow (its merge joins byte arrays into string keys),
// and a second, independent implementation that the tests hold the default backend against.
// Loaded with require() on the first count, once per process and encoding.
import { createRequire } from "node:module";
import type { EncodingName } from "../encodings/encoding-name.js";
import { pretokenizePatternSource } from "../encodings/pretokenize-pattern.js";

interface JsTiktokenRanks {
  readonly pat_str: string;
  readonly special_tokens: Record<string, number>;
  readonly bpe_ranks: string;
}

interface JsTiktokenEncoder {
  encode(text: string, allowedSpecial?: ReadonlyArray<string> | "all", disallowedSpecial?: ReadonlyArray<string> | "all"): number[];
}

const require = createRequire(import.meta.url);
const encoders = new Map<EncodingName, JsTiktokenEncoder>();
const NONE: ReadonlyArray<string> = Object.freeze([]);

function loadRanks(encoding: EncodingName): JsTiktokenRanks {
  // Static paths, so bundlers that follow require() can see them. The CommonJS rank files export the object itself.
  return encoding === "o200k_base" ? require("js-tiktoken/ranks/o200k_base") : require("js-tiktoken/ranks/cl100k_base");
}

function loadEncoder(encoding: EncodingName): JsTiktokenEncoder {
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    const { Tiktoken } = require("js-tiktoken/lite") as { Tiktoken: new (ranks: JsTiktokenRanks) => JsTiktokenEncoder };
    encoder = new Tiktoken({ ...loadRanks(encoding), pat_str: pretokenizePatternSource(encoding) });
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/** Counts with js-tiktoken; text that looks like a special token is ordinary text (nothing is allowed or disallowed). */
export function loadJsTiktokenCounter(encoding: EncodingName): (text: string) => number {
  const encoder = loadEncoder(encoding);
  return (text) => (text.length === 0 ? 0 : encoder.encode(text, NONE, NONE).length);
}
