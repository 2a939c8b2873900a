// The loop every importer shares: turns each record of the input array into items, validates them
// through the item schema, and throws one InvalidInputError listing every problem of the whole input.
// A repeated id is not a problem here: stores hold double writes and edits, and the pipeline keeps the
// last version of each record and reports the others.
import { type InputIssue, InvalidInputError } from "../errors/invalid-input-error.js";
import type { Item, ItemInput } from "../model/item.js";
import { parseItem, readRecordId } from "../model/parse-items.js";
import { describeValue } from "./describe-value.js";
import type { FrozenRecordMemo } from "./frozen-record-memo.js";
import { isPlainObject } from "./is-plain-object.js";
import { RecordReader } from "./record-reader.js";

/** Turns one record into items; problems go to the reader, which then discards the items. */
export type ReadRecord = (record: Record<string, unknown>, reader: RecordReader) => ReadonlyArray<ItemInput>;

/**
 * Reads a record of a common shape straight into its items (already what the item schema gives), or
 * returns undefined to leave it to the ReadRecord, which reports every problem.
 */
export type ReadCommonRecord = (record: Record<string, unknown>) => Item[] | undefined;

/**
 * Reads every record of `input`. With a memo, a deep-frozen record read before gives the items it gave
 * then (the same objects), so only what a store appended since is read.
 */
export function runImport(source: string, input: unknown, readRecord: ReadRecord, memo?: FrozenRecordMemo, readCommon?: ReadCommonRecord): Item[] {
  if (!Array.isArray(input)) {
    throw new InvalidInputError(source, [{ index: 0, id: undefined, path: [], message: `expected an array of ${source}s, got ${describeValue(input)}` }]);
  }
  const session = memo?.start(input);
  const items: Item[] = session?.items ?? [];
  const issues: InputIssue[] = [];
  // A counting loop rather than forEach, which skips the holes of a sparse array.
  for (let index = session?.from ?? 0; index < input.length; index++) {
    const record: unknown = input[index];
    const known = session?.lookup(record);
    if (known !== undefined) {
      for (const item of known) items.push(item);
      continue;
    }
    const common = readCommon !== undefined && isPlainObject(record) ? readCommon(record) : undefined;
    if (common !== undefined) {
      session?.remember(record as object, common);
      for (const item of common) items.push(item);
      continue;
    }
    const reader = new RecordReader(index, readRecordId(record));
    if (!isPlainObject(record)) {
      reader.issue([], `expected an object, got ${describeValue(record)}`);
      issues.push(...reader.issues);
      continue;
    }
    const built = readRecord(record, reader);
    if (reader.issues.length > 0) {
      issues.push(...reader.issues);
      continue;
    }
    const read: Item[] = [];
    for (const candidate of built) {
      // The importer checks every field it reads, so this is a backstop; its paths are the item's.
      const parsed = parseItem(candidate, index);
      if (Array.isArray(parsed)) {
        issues.push(...parsed.map((issue) => ({ ...issue, id: reader.id })));
        continue;
      }
      read.push(parsed);
    }
    if (read.length === built.length) session?.remember(record, read);
    for (const item of read) items.push(item);
  }
  if (issues.length > 0) throw new InvalidInputError(source, issues);
  session?.finish(input, items);
  return items;
}
