// The texts a build kept outside the request, each handle once, in the order recorded. A compression
// chain offloads thousands of cleared results every build as one batch, the same batch object as last
// build's: its texts are indexed by handle once per batch and read through, not copied into a new map
// every build. What a plugin offloads on its own goes into a map of the build's.
import type { OffloadedText } from "./build-report.js";

// A batch's texts by handle (the first of a handle given twice), made once per batch's text list.
const indexed = new WeakMap<ReadonlyArray<OffloadedText>, ReadonlyMap<string, OffloadedText>>();

function indexOf(texts: ReadonlyArray<OffloadedText>): ReadonlyMap<string, OffloadedText> {
  let index = indexed.get(texts);
  if (index === undefined) {
    const made = new Map<string, OffloadedText>();
    for (const text of texts) if (!made.has(text.handle)) made.set(text.handle, text);
    index = made;
    indexed.set(texts, index);
  }
  return index;
}

export class OffloadedTexts implements ReadonlyMap<string, OffloadedText> {
  /** In the order recorded: the build's own maps and batches' indexes; a handle counts where it first appears. */
  readonly #sources: Array<ReadonlyMap<string, OffloadedText>> = [];
  /** The build's own map, while it is the last source. */
  #own: Map<string, OffloadedText> | undefined;
  /** The texts each handle once, in order: made when first read after a change. */
  #list: OffloadedText[] | undefined;

  /** Keeps the text unless its handle is kept already. */
  add(text: OffloadedText): void {
    if (this.has(text.handle)) return;
    if (this.#own === undefined) {
      this.#own = new Map();
      this.#sources.push(this.#own);
    }
    this.#own.set(text.handle, text);
    this.#list = undefined;
  }

  /** Keeps a batch's texts, after everything kept so far (its list is never changed once recorded). */
  addBatch(texts: ReadonlyArray<OffloadedText>): void {
    if (texts.length === 0) return;
    this.#sources.push(indexOf(texts));
    this.#own = undefined;
    this.#list = undefined;
  }

  /** Whether any text is kept (without counting them). */
  get any(): boolean {
    return this.#sources.some((source) => source.size > 0);
  }

  get size(): number {
    return this.#texts().length;
  }

  #texts(): OffloadedText[] {
    if (this.#list === undefined) {
      const list: OffloadedText[] = [];
      const sources = this.#sources;
      for (let at = 0; at < sources.length; at++) {
        for (const text of sources[at]!.values()) if (!seenBefore(sources, at, text.handle)) list.push(text);
      }
      this.#list = list;
    }
    return this.#list;
  }

  get(handle: string): OffloadedText | undefined {
    for (const source of this.#sources) {
      const text = source.get(handle);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  has(handle: string): boolean {
    return this.get(handle) !== undefined;
  }

  values(): MapIterator<OffloadedText> {
    return this.#texts().values();
  }

  *keys(): MapIterator<string> {
    for (const text of this.values()) yield text.handle;
  }

  *entries(): MapIterator<[string, OffloadedText]> {
    for (const text of this.values()) yield [text.handle, text];
  }

  [Symbol.iterator](): MapIterator<[string, OffloadedText]> {
    return this.entries();
  }

  forEach(visit: (value: OffloadedText, key: string, map: ReadonlyMap<string, OffloadedText>) => void, thisArg?: unknown): void {
    for (const text of this.values()) visit.call(thisArg, text, text.handle, this);
  }
}

function seenBefore(sources: ReadonlyArray<ReadonlyMap<string, OffloadedText>>, at: number, handle: string): boolean {
  for (let earlier = 0; earlier < at; earlier++) if (sources[earlier]!.has(handle)) return true;
  return false;
}
