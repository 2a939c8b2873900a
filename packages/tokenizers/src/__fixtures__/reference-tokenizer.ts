// tiktoken's Rust implementation (the `tiktoken` WASM build), the reference every count is held to:
// `encode_ordinary`, which treats text that looks like a special token as ordinary text.
import { createRequire } from "node:module";
import type { EncodingName } from "../encodings/encoding-name.js";

interface WasmEncoder {
  encode_ordinary(text: string): Uint32Array;
  decode_single_token_bytes(token: number): Uint8Array;
  free(): void;
}

const require = createRequire(import.meta.url);
const { get_encoding } = require("tiktoken") as { get_encoding(name: EncodingName): WasmEncoder };

export interface ReferenceTokenizers {
  count(encoding: EncodingName, text: string): number;
  /** The bytes of one token (valid ranks only: an unknown rank panics inside the WASM module). */
  tokenBytes(encoding: EncodingName, rank: number): Uint8Array;
  /** Frees the WASM encoders; call it in afterAll. */
  free(): void;
}

export function openReferenceTokenizers(): ReferenceTokenizers {
  const encoders = new Map<EncodingName, WasmEncoder>();
  const encoderOf = (encoding: EncodingName) => {
    let encoder = encoders.get(encoding);
    if (encoder === undefined) {
      encoder = get_encoding(encoding);
      encoders.set(encoding, encoder);
    }
    return encoder;
  };
  return {
    count: (encoding, text) => encoderOf(encoding).encode_ordinary(text).length,
    tokenBytes: (encoding, rank) => encoderOf(encoding).decode_single_token_bytes(rank),
    free() {
      for (const encoder of encoders.values()) encoder.free();
      encoders.clear();
    },
  };
}
