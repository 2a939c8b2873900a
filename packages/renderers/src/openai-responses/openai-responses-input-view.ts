// How the Responses rules read a request: it may be anything a user built by hand, so every field is
// looked at as an unknown value, and every input item knows its index for the violations it causes.
import { describeRequestValue } from "@ctxpipe/core";

export type JsonRecord = { readonly [key: string]: unknown };

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const EMPTY: JsonRecord = Object.freeze({});

/**
 * What an input item is, as the rules need to know it. A message without `type` is a message (the API
 * takes `{ role, content }` alone); any type ctxpipe has no model for is "other".
 */
export type InputItemKind = "input-message" | "assistant-message" | "function_call" | "function_call_output" | "reasoning" | "other";

export interface InputItemView {
  readonly index: number;
  /** The item's fields; empty when the item is not an object. */
  readonly fields: JsonRecord;
  readonly isObject: boolean;
  /** The item's type when it is a string ("message" when left out). */
  readonly type: string | undefined;
  readonly kind: InputItemKind;
  /** The item's id when it is a non-empty string. */
  readonly id: string | undefined;
  /** The call_id when it is a string. */
  readonly callId: string | undefined;
}

function kindOf(fields: JsonRecord, type: string | undefined): InputItemKind {
  if (type === "message") return fields.role === "assistant" ? "assistant-message" : "input-message";
  if (type === "function_call" || type === "function_call_output" || type === "reasoning") return type;
  return "other";
}

/** The view of one item, at `index` of its input (also for a stored item before it is sent). */
export function inputItemView(item: unknown, index: number): InputItemView {
  const fields = isRecord(item) ? item : EMPTY;
  const type = fields.type === undefined && fields.role !== undefined ? "message" : typeof fields.type === "string" ? fields.type : undefined;
  return {
    index,
    fields,
    isObject: isRecord(item),
    type,
    kind: kindOf(fields, type),
    id: typeof fields.id === "string" && fields.id !== "" ? fields.id : undefined,
    callId: typeof fields.call_id === "string" ? fields.call_id : undefined,
  };
}

// About twenty rules read the same request in one check. The views of a frozen input array whose items
// are all frozen cannot go stale, so they are made once; any other input is read afresh.
const frozenViews = new WeakMap<ReadonlyArray<unknown>, ReadonlyArray<InputItemView>>();

/** The input items of a request; empty when `input` is not an array (a string input has no items to check). */
export function inputViewsOf(request: unknown): ReadonlyArray<InputItemView> {
  if (!isRecord(request) || !Array.isArray(request.input)) return [];
  const input: ReadonlyArray<unknown> = request.input;
  const known = frozenViews.get(input);
  if (known !== undefined) return known;
  // Array.from, not map: a sparse array (holes) still gets a view per index.
  const views = Array.from({ length: input.length }, (_, index) => inputItemView(input[index], index));
  if (Object.isFrozen(input) && input.every((item) => typeof item !== "object" || item === null || Object.isFrozen(item))) frozenViews.set(input, views);
  return views;
}

/**
 * Items a model writes: its messages, calls (function calls and built-in tool calls such as
 * web_search_call) and reasoning. A run of them between two items the caller writes is one turn.
 */
export function isModelItem(view: InputItemView): boolean {
  if (view.kind === "assistant-message" || view.kind === "function_call" || view.kind === "reasoning") return true;
  return view.kind === "other" && view.type !== undefined && isBuiltInCallType(view.type);
}

/** A built-in tool's call item (web_search_call, code_interpreter_call, mcp_call …), which reasoning may precede. */
export function isBuiltInCallType(type: string): boolean {
  return (type.endsWith("_call") && type !== "function_call") || type === "mcp_list_tools" || type === "mcp_approval_request";
}

/** Where a violation is: the path inside the input item and the item's index. */
export function at(view: InputItemView, suffix = ""): { path: string; messageIndex: number } {
  return { path: `input[${view.index}]${suffix}`, messageIndex: view.index };
}

/** A value named in a violation message (core's, shared with the Chat Completions rules). */
export const describeValue = describeRequestValue;
