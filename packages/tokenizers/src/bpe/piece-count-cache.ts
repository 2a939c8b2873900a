// Token counts of pieces that took byte-pair merging, looked up by a range of the text being
// counted, like TokenTable, so a repeated word that is not one token costs a hash and a compare
// instead of a substring and a Map lookup. Bounded: when full it starts over, which keeps it cheap
// and lets the pieces of old texts go.
import { hashRange } from "./token-table.js";

const CAPACITY = 1 << 15;
const SLOT_MASK = 2 * CAPACITY - 1;

export class PieceCountCache {
  readonly #slots = new Int32Array(2 * CAPACITY).fill(-1);
  #pieces: string[] = [];
  #counts: number[] = [];

  /** The cached count of `text.slice(start, end)`, or -1. */
  get(text: string, start: number, end: number): number {
    const length = end - start;
    let slot = hashRange(text, start, end) & SLOT_MASK;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === -1) return -1;
      const piece = this.#pieces[entry]!;
      if (piece.length === length) {
        let index = 0;
        while (index < length && piece.charCodeAt(index) === text.charCodeAt(start + index)) index++;
        if (index === length) return this.#counts[entry]!;
      }
      slot = (slot + 1) & SLOT_MASK;
    }
  }

  set(piece: string, count: number): void {
    if (this.#pieces.length >= CAPACITY) {
      this.#slots.fill(-1);
      this.#pieces = [];
      this.#counts = [];
    }
    let slot = hashRange(piece, 0, piece.length) & SLOT_MASK;
    while (this.#slots[slot] !== -1) slot = (slot + 1) & SLOT_MASK;
    this.#slots[slot] = this.#pieces.length;
    this.#pieces.push(piece);
    this.#counts.push(count);
  }
}
