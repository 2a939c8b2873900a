// The mixed corpus of mixed-corpus.json: prose in several scripts, code, JSON, logs, emoji, whitespace
// runs, numbers, byte-order marks, lone surrogates and text that looks like special tokens.
import { readFileSync } from "node:fs";

export interface CorpusSample {
  readonly name: string;
  readonly text: string;
}

export const MIXED_CORPUS: ReadonlyArray<CorpusSample> = JSON.parse(readFileSync(new URL("./mixed-corpus.json", import.meta.url), "utf8"));
