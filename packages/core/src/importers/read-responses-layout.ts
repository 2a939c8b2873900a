// Decides, before any record is read, which stored Responses items make one ctxpipe item: an assistant
// turn spans several records, and items of types ctxpipe has no model for travel with a neighbour.
import { isPlainObject } from "./is-plain-object.js";

/**
 * - `turn`: part of an assistant turn (reasoning, an assistant message, a function_call, or an item of
 *   another type standing between two of those); the turn's item is made when its last record is read.
 * - `own`: makes an item of its own (a user, system or developer message, a function_call_output), or
 *   is a record the importer will refuse.
 * - `verbatim`: an item of a type ctxpipe has no model for, outside any turn: it is sent back with the
 *   next item (or after the last one).
 */
export type ResponsesRecordPlace = { readonly kind: "turn"; readonly first: number; readonly last: number } | { readonly kind: "own" } | { readonly kind: "verbatim" };

export interface ResponsesLayout {
  readonly places: ReadonlyArray<ResponsesRecordPlace>;
  /** The record whose reading makes the last item (a turn's last record), or -1 when no record makes one. */
  readonly lastItemRecord: number;
}

type RecordKind = "turn-member" | "own" | "verbatim";

/** A Responses item type the importer reads into the item model (others are kept verbatim). */
const MODELLED_TYPES: ReadonlySet<string> = new Set(["message", "function_call", "function_call_output", "reasoning"]);

function kindOf(record: unknown): RecordKind {
  if (!isPlainObject(record)) return "own";
  const type = record.type;
  if (type === undefined || type === null) {
    if (Object.hasOwn(record, "role")) return record.role === "assistant" ? "turn-member" : "own";
    // An item reference may be written without its type: `{ "id": "msg_…" }`.
    return isUntypedItemReference(record) ? "verbatim" : "own";
  }
  if (typeof type !== "string") return "own";
  if (type === "message") return record.role === "assistant" ? "turn-member" : "own";
  if (type === "function_call" || type === "reasoning") return "turn-member";
  return MODELLED_TYPES.has(type) ? "own" : "verbatim";
}

/** `{ id }` alone (a null type allowed): the Responses API's item reference in its short form. */
export function isUntypedItemReference(record: Record<string, unknown>): boolean {
  return typeof record.id === "string" && Object.keys(record).every((key) => key === "id" || (key === "type" && record.type === null));
}

export function readResponsesLayout(records: ReadonlyArray<unknown>): ResponsesLayout {
  // A counting loop: holes of a sparse array are records too (refused when read).
  const kinds: RecordKind[] = [];
  for (let index = 0; index < records.length; index++) kinds.push(kindOf(records[index]));
  const places: ResponsesRecordPlace[] = [];
  let lastItemRecord = -1;
  let index = 0;
  while (index < kinds.length) {
    const kind = kinds[index];
    if (kind !== "turn-member") {
      places.push(kind === "own" ? { kind: "own" } : { kind: "verbatim" });
      if (kind === "own") lastItemRecord = index;
      index++;
      continue;
    }
    // The turn runs to its last member; unmodelled items between two members are inside it.
    let last = index;
    for (let next = index + 1; next < kinds.length && kinds[next] !== "own"; next++) if (kinds[next] === "turn-member") last = next;
    for (let member = index; member <= last; member++) places.push({ kind: "turn", first: index, last });
    lastItemRecord = last;
    index = last + 1;
  }
  return { places, lastItemRecord };
}
