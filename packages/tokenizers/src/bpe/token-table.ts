// The tokens whose bytes are valid UTF-8, looked up by a range of a string without slicing it: an
// open-addressing hash table over UTF-16 code units. A lookup per piece is the hot path of counting;
// hashing the range in place instead of allocating a substring and going through a Map makes
// counting about a third faster, and the table takes less memory than a Map of 200,000 strings.
export class TokenTable {
  readonly size: number;
  readonly #slots: Int32Array;
  readonly #mask: number;
  readonly #units: Uint16Array;
  readonly #starts: Int32Array;
  readonly #lengths: Int32Array;
  readonly #ranks: Int32Array;

  /** `texts[i]` is the token of rank `ranks[i]`. */
  constructor(texts: ReadonlyArray<string>, ranks: ReadonlyArray<number>) {
    const count = texts.length;
    let slotCount = 1;
    while (slotCount < count * 2) slotCount *= 2;
    const slots = new Int32Array(slotCount).fill(-1);
    const mask = slotCount - 1;
    let unitCount = 0;
    for (let entry = 0; entry < count; entry++) unitCount += texts[entry]!.length;
    const units = new Uint16Array(unitCount);
    const starts = new Int32Array(count);
    const lengths = new Int32Array(count);
    let offset = 0;
    for (let entry = 0; entry < count; entry++) {
      const text = texts[entry]!;
      for (let index = 0; index < text.length; index++) units[offset + index] = text.charCodeAt(index);
      starts[entry] = offset;
      lengths[entry] = text.length;
      offset += text.length;
      let slot = hashRange(text, 0, text.length) & mask;
      while (slots[slot] !== -1) slot = (slot + 1) & mask;
      slots[slot] = entry;
    }
    this.#slots = slots;
    this.#mask = mask;
    this.#units = units;
    this.#starts = starts;
    this.#lengths = lengths;
    this.#ranks = Int32Array.from(ranks);
    this.size = count;
  }

  /** The rank of `text.slice(start, end)`, or -1 when it is not a token. */
  rankOf(text: string, start: number, end: number): number {
    const length = end - start;
    const units = this.#units;
    let slot = hashRange(text, start, end) & this.#mask;
    for (;;) {
      const entry = this.#slots[slot]!;
      if (entry === -1) return -1;
      if (this.#lengths[entry] === length) {
        const offset = this.#starts[entry]! - start;
        let index = start;
        while (index < end && units[offset + index] === text.charCodeAt(index)) index++;
        if (index === end) return this.#ranks[entry]!;
      }
      slot = (slot + 1) & this.#mask;
    }
  }
}

// FNV-1a over code units with a final avalanche (murmur3's fmix32): cheap for pieces of a few
// characters, and well spread over the table's low bits.
export function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}
