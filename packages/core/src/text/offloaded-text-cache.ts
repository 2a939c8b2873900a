// The originals of the texts an integration's builds cut or cleared (report.offloaded), kept in memory
// so retrieve_context can read them back without a store (the AI SDK context, the LangChain middleware). Bounded by a total of characters: past it the texts seen
// longest ago go first. A build lists every text it cut, not only new ones, so a text the prompts
// still name is seen again at each step and stays among the newest.
import type { OffloadedText } from "../pipeline/build-report.js";

/** Characters kept by default: 20 million (about 40 MB in memory), e.g. a hundred 200 kB logs. */
export const DEFAULT_MAX_OFFLOADED_CHARS = 20_000_000;

/** Offloaded originals by handle, at most `maxChars` characters in all (0: none kept). */
export class OffloadedTextCache {
  readonly #maxChars: number;
  // Insertion order is the order last seen: Map iterates oldest first.
  readonly #texts = new Map<string, string>();
  #chars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** Characters held now. */
  get chars(): number {
    return this.#chars;
  }

  /** Keeps the texts of one build, each as the newest; then lets the oldest go until the total fits. */
  keep(offloaded: ReadonlyArray<OffloadedText>): void {
    if (this.#maxChars === 0) return;
    for (const { handle, text } of offloaded) {
      const held = this.#texts.get(handle);
      if (held !== undefined) {
        this.#texts.delete(handle);
        this.#chars -= held.length;
      }
      this.#texts.set(handle, text);
      this.#chars += text.length;
    }
    // The newest text stays even alone over the limit: its marker is in the prompt just sent.
    for (const [handle, text] of this.#texts) {
      if (this.#chars <= this.#maxChars || this.#texts.size === 1) break;
      this.#texts.delete(handle);
      this.#chars -= text.length;
    }
  }

  get(handle: string): string | undefined {
    return this.#texts.get(handle);
  }
}
