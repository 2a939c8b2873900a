// The items of records that can no longer change. A store that hands back the same deep-frozen record
// objects for a log that only grew (JsonlStore, PostgresStore) gets the same item objects for them on
// every import, so what a pipeline keeps by item object (parsing, token counts, decisions, rendered
// messages) survives the store round trip. Anything not deep-frozen is read again every time.
import { deepFreeze } from "../model/deep-freeze.js";
import type { Item } from "../model/item.js";
import { isDeepFrozen } from "../model/is-deep-frozen.js";
import { rememberValid } from "../model/parse-items.js";

interface Remembered {
  readonly items: ReadonlyArray<Item>;
  /** The import that last handed these items out: a record given twice in one import is read again the second time. */
  importNumber: number;
}

/** A list imported before, all of whose records were deep-frozen, and what it gave (arrays of the memo's own). */
interface ImportedList {
  readonly records: unknown[];
  readonly items: Item[];
}

/** Whether `next` starts with the same objects as `previous`. */
function startsWith(next: ReadonlyArray<unknown>, previous: ReadonlyArray<unknown>): boolean {
  if (next.length < previous.length) return false;
  for (let index = 0; index < previous.length; index++) if (next[index] !== previous[index]) return false;
  return true;
}

/** One import with a memo: where it resumes, and what it may remember. */
export interface MemoImport {
  /** The first index still to read: the records before it are the last import's of this list. */
  readonly from: number;
  /** The items of the records before `from`, in a new array the import appends to. */
  readonly items: Item[];
  /** The items remembered for `record`, or undefined when it must be read. */
  lookup(record: unknown): ReadonlyArray<Item> | undefined;
  /** Remembers what `record` was read as, when it is deep-frozen (the items are frozen then). */
  remember(record: object, items: ReadonlyArray<Item>): void;
  /** Keeps the list and its items, so that the next import of it (grown or not) resumes after them. */
  finish(input: ReadonlyArray<unknown>, items: ReadonlyArray<Item>): void;
}

export class FrozenRecordMemo {
  readonly #byRecord = new WeakMap<object, Remembered>();
  /** The last list imported, by its first record (a conversation's first message does not change). */
  readonly #lists = new WeakMap<object, ImportedList>();
  #imports = 0;

  start(input: ReadonlyArray<unknown>): MemoImport {
    const importNumber = ++this.#imports;
    const first = input[0];
    const last = typeof first === "object" && first !== null ? this.#lists.get(first) : undefined;
    const resumed = last !== undefined && startsWith(input, last.records);
    // Records after a resumed prefix are read, not looked up: one of them may be a prefix record given
    // again, which must not share the prefix's item objects.
    let frozen = true;
    return {
      from: resumed ? last.records.length : 0,
      items: resumed ? last.items.slice() : [],
      lookup: (record) => {
        if (resumed || typeof record !== "object" || record === null) return undefined;
        const remembered = this.#byRecord.get(record);
        if (remembered === undefined || remembered.importNumber === importNumber) return undefined;
        remembered.importNumber = importNumber;
        return remembered.items;
      },
      remember: (record, items) => {
        if (this.#byRecord.has(record) || !isDeepFrozen(record)) {
          frozen = false;
          return;
        }
        for (const item of items) rememberValid(deepFreeze(item));
        this.#byRecord.set(record, { items, importNumber });
      },
      finish: (records, items) => {
        if (!frozen || typeof first !== "object" || first === null) return;
        if (!resumed) {
          this.#lists.set(first, { records: records.slice(), items: items.slice() });
          return;
        }
        // The list grew: the kept arrays grow with it, instead of being copied whole on every import.
        for (let index = last.records.length; index < records.length; index++) last.records.push(records[index]);
        for (let index = last.items.length; index < items.length; index++) last.items.push(items[index]!);
      },
    };
  }
}
