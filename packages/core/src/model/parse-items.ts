// Validates items given to build() (or produced by an importer) and turns zod's issues into one
// InvalidInputError that names each item's index, id and field.
import type { z } from "zod";
import { type InputIssue, InvalidInputError } from "../errors/invalid-input-error.js";
import { instantOf } from "./instant-of.js";
import { isDeepFrozen } from "./is-deep-frozen.js";
import { ITEM_TYPES, type Item, type ItemInput, itemSchema } from "./item.js";

// Items are treated as immutable: an object validated once is not validated again on the next
// build, so rebuilding after one new message costs one validation, not the whole history.
const validated = new WeakMap<object, Item>();

/** Prefix of the ids of items ctxpipe's own plugins synthesize (the system prompt, repaired results). */
export const RESERVED_ID_PREFIX = "ctxpipe:";

export function readRecordId(record: unknown): string | undefined {
  if (typeof record !== "object" || record === null) return undefined;
  const id = (record as { id?: unknown }).id;
  return typeof id === "string" && id.length > 0 ? id : typeof id === "number" ? String(id) : undefined;
}

export function issuesFromZod(index: number, id: string | undefined, error: z.ZodError, prefix: ReadonlyArray<string | number> = []): InputIssue[] {
  return error.issues.map((issue) => ({
    index,
    id,
    path: [...prefix, ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part))],
    message: describeZodIssue(issue),
  }));
}

function describeZodIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_union" && issue.path.at(-1) === "type") {
    return `unknown item type; expected one of ${ITEM_TYPES.join(", ")}`;
  }
  return issue.message;
}

/**
 * Marks a frozen item as valid as it stands, so that building with it does not parse it again. Only
 * for items that came out of parseItem and were frozen since: nothing can have changed them.
 */
export function rememberValid(item: Item): void {
  if (Object.isFrozen(item)) validated.set(item, item);
}

export function parseItem(input: ItemInput, index: number): Item | InputIssue[] {
  if (typeof input === "object" && input !== null) {
    const cached = validated.get(input);
    if (cached !== undefined) return cached;
  }
  const result = itemSchema.safeParse(input);
  if (!result.success) return issuesFromZod(index, readRecordId(input), result.error);
  if (typeof input !== "object" || input === null) return result.data;
  // A deep-frozen item that is already what parsing makes of it (a strategy's placeholder, made from
  // a parsed item) is the item itself: the lists handed on hold the plugin's own objects, and the next
  // build, given the same object, finds nothing replaced.
  const item = isDeepFrozen(input) && sameData(result.data, input) ? (input as Item) : result.data;
  validated.set(input, item);
  return item;
}

/** The same JSON-like data: the same keys in the same order, the same primitives. */
function sameData(made: unknown, given: unknown): boolean {
  if (made === given) return true;
  if (typeof made !== "object" || made === null || typeof given !== "object" || given === null) return false;
  if (Array.isArray(made) !== Array.isArray(given)) return false;
  const madeKeys = Object.keys(made);
  const givenKeys = Object.keys(given);
  if (madeKeys.length !== givenKeys.length) return false;
  for (let index = 0; index < madeKeys.length; index++) {
    const key = madeKeys[index]!;
    if (key !== givenKeys[index] || !sameData((made as Record<string, unknown>)[key], (given as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * A record left out before the first stage because another record with its id is sent in its place:
 * an exact copy (a double write: same id, same content) or an earlier version of a record that was
 * edited (same id, other content; the last version wins).
 */
export interface SetAsideRecord {
  readonly index: number;
  readonly item: Item;
  readonly kind: "copy" | "earlier-version";
  /** Input index of the record kept for this id. */
  readonly keptIndex: number;
}

export interface ParsedInput {
  /** The items, each id once, at the position of the first record with that id. */
  readonly items: Item[];
  /** For each item, the input index of the record it is (for an edited record, its last version). */
  readonly indexes: number[];
  /** Copies and earlier versions of the records in items, in input order. */
  readonly setAside: SetAsideRecord[];
  /** One line per item whose createdAt is not a date (the item keeps its position). */
  readonly warnings: string[];
}

/** Validates a list of items; throws one InvalidInputError listing every problem, repeated ids included. */
export function parseItems(inputs: ReadonlyArray<ItemInput>, source = "item"): Item[] {
  return parseInput(inputs, source, false).items;
}

/** The report warning for an item whose createdAt names no instant; undefined when it has none or a good one. */
export function dateWarning(item: Item, index: number): string | undefined {
  const createdAt = item.createdAt;
  if (createdAt === undefined || !Number.isNaN(instantOf(createdAt))) return undefined;
  const shown = createdAt.length > 60 ? `${createdAt.slice(0, 60)}…` : createdAt;
  return `[ctxpipe] item ${index} (id ${JSON.stringify(item.id)}): createdAt ${JSON.stringify(shown)} is not a date; it keeps its position`;
}

/**
 * Like parseItems, but a repeated id is never refused (stored histories hold double writes and edits):
 * of the records with one id, the last version is kept, at the position of the first record; records
 * with its content after it are copies, those before it are earlier versions. Both are set aside, for
 * the report to list. Without acceptRepeats (parseItems), a repeated id is an error.
 */
export function parseInput(inputs: ReadonlyArray<ItemInput>, source = "item", acceptRepeats = true): ParsedInput {
  if (!Array.isArray(inputs)) {
    throw new InvalidInputError(source, [{ index: 0, id: undefined, path: [], message: "expected an array of items" }]);
  }
  const valid: Array<{ index: number; item: Item }> = [];
  const issues: InputIssue[] = [];
  const countById = new Map<string, number>();
  let repeated = false;
  // A counting loop rather than forEach, which would skip the holes of a sparse array silently.
  for (let index = 0; index < inputs.length; index++) {
    const parsed = parseItem(inputs[index] as ItemInput, index);
    if (Array.isArray(parsed)) {
      issues.push(...parsed);
      continue;
    }
    if (parsed.id.startsWith(RESERVED_ID_PREFIX)) {
      issues.push({ index, id: parsed.id, path: ["id"], message: `ids starting with "${RESERVED_ID_PREFIX}" are reserved for items ctxpipe synthesizes` });
      continue;
    }
    const count = (countById.get(parsed.id) ?? 0) + 1;
    countById.set(parsed.id, count);
    if (count > 1) {
      repeated = true;
      if (!acceptRepeats) {
        const first = valid.find((record) => record.item.id === parsed.id)!;
        const same = contentOf(first.item) === contentOf(parsed);
        issues.push({ index, id: parsed.id, path: ["id"], message: `duplicate id: item ${first.index} has the same id and ${same ? "the same content (stored twice)" : "different content"}` });
      }
    }
    valid.push({ index, item: parsed });
  }
  if (issues.length > 0) throw new InvalidInputError(source, issues);
  const kept = repeated ? keepLastVersions(valid, countById) : { records: valid, setAside: [] };
  const items = kept.records.map((record) => record.item);
  const indexes = kept.records.map((record) => record.index);
  const warnings: string[] = [];
  for (const record of kept.records) {
    const warning = dateWarning(record.item, record.index);
    if (warning !== undefined) warnings.push(warning);
  }
  return { items, indexes, setAside: kept.setAside, warnings };
}

function contentOf(item: Item): string {
  return JSON.stringify(item);
}

/**
 * One record per id, at the first record's position. The record kept is the first of the trailing run
 * of records equal to the last one, so a plain double write keeps the first record, as it always did.
 */
function keepLastVersions(
  valid: ReadonlyArray<{ index: number; item: Item }>,
  countById: ReadonlyMap<string, number>,
): { records: Array<{ index: number; item: Item }>; setAside: SetAsideRecord[] } {
  const versionsById = new Map<string, Array<{ index: number; item: Item }>>();
  for (const record of valid) {
    if (countById.get(record.item.id) === 1) continue;
    const versions = versionsById.get(record.item.id);
    if (versions === undefined) versionsById.set(record.item.id, [record]);
    else versions.push(record);
  }
  const records: Array<{ index: number; item: Item }> = [];
  const setAside: SetAsideRecord[] = [];
  for (const record of valid) {
    const versions = versionsById.get(record.item.id);
    if (versions === undefined) {
      records.push(record);
      continue;
    }
    // Later records with this id were handled at its first one.
    if (versions[0] !== record) continue;
    const last = contentOf(versions.at(-1)!.item);
    let keptAt = versions.length - 1;
    while (keptAt > 0 && contentOf(versions[keptAt - 1]!.item) === last) keptAt--;
    const keptRecord = versions[keptAt]!;
    records.push(keptRecord);
    versions.forEach((version, position) => {
      if (position === keptAt) return;
      setAside.push({ index: version.index, item: version.item, kind: position < keptAt ? "earlier-version" : "copy", keptIndex: keptRecord.index });
    });
  }
  setAside.sort((left, right) => left.index - right.index);
  return { records, setAside };
}
