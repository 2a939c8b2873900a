import type { Tokenizer } from "@ctxpipe/core";
import type { TokenizerBackend } from "./backends/tokenizer-backend.js";
import type { EncodingName } from "./encodings/encoding-name.js";

/** A tokenizer whose counts equal OpenAI's for the encoding (tiktoken's `encode_ordinary`). */
export interface ExactTokenizer extends Tokenizer {
  readonly exact: true;
  /** The encoding, e.g. "o200k_base". */
  readonly name: EncodingName;
  /** The implementation that counts; both give the same counts. */
  readonly backend: TokenizerBackend;
}
