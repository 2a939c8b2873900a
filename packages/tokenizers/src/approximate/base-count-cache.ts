// Base-encoding counts shared by an approximate tokenizer and every tokenizer calibrated from it.
// Calibrating makes a new tokenizer object, which core's per-tokenizer caches have never seen; this
// cache keeps the next build from re-tokenizing the whole history (a lookup hashes the text, tens of
// times faster than counting it). Short texts are counted directly; the cache is bounded in entries
// and in characters, and drops its oldest entries first.
import type { ExactTokenizer } from "../exact-tokenizer.js";

const MAX_ENTRIES = 65_536;
const MAX_CHARACTERS = 32 * 1024 * 1024;
const MIN_CACHED_LENGTH = 64;

export class BaseCountCache {
  readonly #base: ExactTokenizer;
  readonly #counts = new Map<string, number>();
  #characters = 0;

  constructor(base: ExactTokenizer) {
    this.#base = base;
  }

  count(text: string): number {
    if (text.length < MIN_CACHED_LENGTH || text.length > MAX_CHARACTERS) return this.#base.count(text);
    let count = this.#counts.get(text);
    if (count === undefined) {
      count = this.#base.count(text);
      this.#counts.set(text, count);
      this.#characters += text.length;
      // A Map iterates in insertion order, so the first keys are the oldest.
      while (this.#counts.size > MAX_ENTRIES || this.#characters > MAX_CHARACTERS) {
        const oldest = this.#counts.keys().next().value!;
        this.#counts.delete(oldest);
        this.#characters -= oldest.length;
      }
    }
    return count;
  }
}
