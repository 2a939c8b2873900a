// Decides, before any record is read, which stored Responses items make one ctxpipe item: an assistant
// turn spans several records, and items of types ctxpipe has no model for travel with a neighbour.
import { isPlainObject } from "./is-plain-object.js";

/**
 * - `turn`: part of an assistant turn (reasoning, an assistant message, a function_call, a built-in
 *   tool's call after one of those, or an item of another type standing between two of those); the
 *   turn's item is made when its last record is read.
 * - `own`: makes an item of its own (a user, system or developer message, a function_call_output), or
 *   is a record the importer will refuse.
 * - `verbatim`: an item of a type ctxpipe has no model for, outside any turn, or a run of reasoning and
 *   built-in calls with no message or function call: it is sent back with the next item (or after the
 *   last one).
 */
export type ResponsesRecordPlace = { readonly kind: "turn"; readonly first: number; readonly last: number } | { readonly kind: "own" } | { readonly kind: "verbatim" };

export interface ResponsesLayout {
  readonly places: ReadonlyArray<ResponsesRecordPlace>;
  /** The record whose reading makes the last item (a turn's last record), or -1 when no record makes one. */
  readonly lastItemRecord: number;
}

/**
 * - `answer`: an assistant message or a function_call; `reasoning`: a reasoning item. Both make turns.
 * - `built-in`: a built-in tool's call (web_search_call, mcp_call …), which the model makes inside a
 *   turn, after the reasoning that led to it.
 * - `verbatim`: any other type ctxpipe has no model for; `own`: an item of its own.
 */
type RecordKind = "answer" | "reasoning" | "built-in" | "own" | "verbatim";

/** A Responses item type the importer reads into the item model (others are kept verbatim). */
const MODELLED_TYPES: ReadonlySet<string> = new Set(["message", "function_call", "function_call_output", "reasoning"]);

/** A built-in tool's call, which the model makes after the reasoning that led to it (mcp_list_tools, which the API adds before the model runs, is not one). */
function isBuiltInCallType(type: string): boolean {
  return (type.endsWith("_call") && type !== "function_call") || type === "mcp_approval_request";
}

function kindOf(record: unknown): RecordKind {
  if (!isPlainObject(record)) return "own";
  const type = record.type;
  if (type === undefined || type === null) {
    if (Object.hasOwn(record, "role")) return record.role === "assistant" ? "answer" : "own";
    // An item reference may be written without its type: `{ "id": "msg_…" }`.
    return isUntypedItemReference(record) ? "verbatim" : "own";
  }
  if (typeof type !== "string") return "own";
  if (type === "message") return record.role === "assistant" ? "answer" : "own";
  if (type === "function_call") return "answer";
  if (type === "reasoning") return "reasoning";
  if (MODELLED_TYPES.has(type)) return "own";
  return isBuiltInCallType(type) ? "built-in" : "verbatim";
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
    if (kind !== "answer" && kind !== "reasoning") {
      places.push(kind === "own" ? { kind: "own" } : { kind: "verbatim" });
      if (kind === "own") lastItemRecord = index;
      index++;
      continue;
    }
    // The turn runs to its last member, a built-in call that ends it included (it belongs after the
    // reasoning that led to it); unmodelled items between two members are inside it.
    let last = index;
    let answers = kind === "answer";
    let builtIn = false;
    for (let next = index + 1; next < kinds.length && kinds[next] !== "own"; next++) {
      const member = kinds[next];
      if (member === "answer" || member === "reasoning" || member === "built-in") last = next;
      answers ||= member === "answer";
      builtIn ||= member === "built-in";
    }
    if (!answers && builtIn) {
      // Reasoning and built-in calls with no message or function call make no item (an assistant item
      // with no text and no calls is never sent): they travel verbatim, in order, with the next item.
      for (let member = index; member <= last; member++) places.push({ kind: "verbatim" });
    } else {
      for (let member = index; member <= last; member++) places.push({ kind: "turn", first: index, last });
      lastItemRecord = last;
    }
    index = last + 1;
  }
  return { places, lastItemRecord };
}
