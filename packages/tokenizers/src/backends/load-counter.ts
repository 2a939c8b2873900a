// Loads the counting function of one encoding in one backend. Each loader keeps its data in a
// module-level map, so the data is read once per process however many tokenizers use it.
import type { EncodingName } from "../encodings/encoding-name.js";
import { loadGptTokenizerCounter } from "./load-gpt-tokenizer-counter.js";
import { loadJsTiktokenCounter } from "./load-js-tiktoken-encoder.js";
import type { TokenizerBackend } from "./tokenizer-backend.js";

export function loadCounter(encoding: EncodingName, backend: TokenizerBackend): (text: string) => number {
  switch (backend) {
    case "gpt-tokenizer": {
      const counter = loadGptTokenizerCounter(encoding);
      return (text) => counter.count(text);
    }
    case "js-tiktoken":
      return loadJsTiktokenCounter(encoding);
  }
}
