// Exact tokenizers, one per encoding and backend for the whole process. Creating one costs nothing;
// the encoding's data is read on its first count, so importing or configuring never pays for it.
import { CtxpipeError, ERROR_CODES, PluginOptionsError } from "@ctxpipe/core";
import { loadCounter } from "./backends/load-counter.js";
import { DEFAULT_BACKEND, TOKENIZER_BACKENDS, type TokenizerBackend } from "./backends/tokenizer-backend.js";
import { ENCODING_NAMES, type EncodingName, isEncodingName } from "./encodings/encoding-name.js";
import type { ExactTokenizer } from "./exact-tokenizer.js";
import { checkOptions, describeValue, oneOf } from "./options/check-options.js";

export interface GetEncodingOptions {
  /** Which implementation counts. Default: DEFAULT_BACKEND ("gpt-tokenizer", the fastest). */
  readonly backend?: TokenizerBackend;
}

const tokenizers = new Map<string, ExactTokenizer>();

function createExactTokenizer(encoding: EncodingName, backend: TokenizerBackend): ExactTokenizer {
  let count: ((text: string) => number) | undefined;
  return Object.freeze({
    specificationVersion: "v1",
    name: encoding,
    exact: true,
    backend,
    count(text: string): number {
      if (typeof text !== "string") {
        throw new CtxpipeError(ERROR_CODES.INPUT_INVALID, `${encoding} tokenizer: count() takes a string, got ${describeValue(text)}`);
      }
      count ??= loadCounter(encoding, backend);
      return count(text);
    },
  });
}

/**
 * The exact tokenizer of an encoding: counts equal what OpenAI counts for the text. Text that looks
 * like a special token (`<|endoftext|>`, `<|im_start|>`, ...) is counted as the plain text it is.
 * The same object is returned for the same encoding and backend, so per-tokenizer caches are shared.
 *
 * @example
 * const tokenizer = getEncoding("o200k_base");
 * tokenizer.count("Hello, world!"); // 4
 */
export function getEncoding(encoding: EncodingName, options: GetEncodingOptions = {}): ExactTokenizer {
  checkOptions("getEncoding()", options, { backend: oneOf(TOKENIZER_BACKENDS) });
  if (!isEncodingName(encoding)) throw new PluginOptionsError("getEncoding()", `✖ ${oneOf(ENCODING_NAMES)(encoding)}\n  → at encoding`);
  const backend = options.backend ?? DEFAULT_BACKEND;
  const key = `${encoding}:${backend}`;
  let tokenizer = tokenizers.get(key);
  if (tokenizer === undefined) {
    tokenizer = createExactTokenizer(encoding, backend);
    tokenizers.set(key, tokenizer);
  }
  return tokenizer;
}
