// Validates items given to build() (or produced by an importer) and turns zod's issues into one
// InvalidInputError that names each item's index, id and field.
import type { z } from "zod";
import { type InputIssue, InvalidInputError } from "../errors/invalid-input-error.js";
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

export function parseItem(input: ItemInput, index: number): Item | InputIssue[] {
  if (typeof input === "object" && input !== null) {
    const cached = validated.get(input);
    if (cached !== undefined) return cached;
  }
  const result = itemSchema.safeParse(input);
  if (!result.success) return issuesFromZod(index, readRecordId(input), result.error);
  if (typeof input === "object" && input !== null) validated.set(input, result.data);
  return result.data;
}

/** A record stored twice: same id, same content. */
export interface DuplicateItem {
  readonly index: number;
  readonly item: Item;
  /** Input index of the copy that is kept. */
  readonly firstIndex: number;
}

export interface ParsedInput {
  /** The items, each id once. */
  readonly items: Item[];
  /** For each item, its index in the input. */
  readonly indexes: number[];
  /** Exact copies of an earlier record (a double write), left out of items. */
  readonly duplicates: DuplicateItem[];
}

/** Validates a list of items; throws one InvalidInputError listing every problem, duplicate ids included. */
export function parseItems(inputs: ReadonlyArray<ItemInput>, source = "item"): Item[] {
  const parsed = parseInput(inputs, source, false);
  return parsed.items;
}

/**
 * Like parseItems, but a record that repeats an earlier one exactly (same id, same content) is set
 * aside as a duplicate instead of refused; the same id with different content is still an error.
 */
export function parseInput(inputs: ReadonlyArray<ItemInput>, source = "item", acceptCopies = true): ParsedInput {
  if (!Array.isArray(inputs)) {
    throw new InvalidInputError(source, [{ index: 0, id: undefined, path: [], message: "expected an array of items" }]);
  }
  const items: Item[] = [];
  const indexes: number[] = [];
  const duplicates: DuplicateItem[] = [];
  const issues: InputIssue[] = [];
  const firstIndexById = new Map<string, number>();
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
    const earlier = firstIndexById.get(parsed.id);
    if (earlier !== undefined) {
      const first = items[indexes.indexOf(earlier)];
      if (acceptCopies && first !== undefined && JSON.stringify(first) === JSON.stringify(parsed)) {
        duplicates.push({ index, item: parsed, firstIndex: earlier });
      } else {
        issues.push({ index, id: parsed.id, path: ["id"], message: `duplicate id: item ${earlier} has the same id and different content` });
      }
      continue;
    }
    firstIndexById.set(parsed.id, index);
    items.push(parsed);
    indexes.push(index);
  }
  if (issues.length > 0) throw new InvalidInputError(source, issues);
  return { items, indexes, duplicates };
}
