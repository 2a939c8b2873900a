// How the OpenAI rules read a request: it may be anything a user built by hand, so every field is
// looked at as an unknown value, and every message carries its path for the violations it causes.
import { type CheckedMessages, checkedMessages, nextChecked } from "../../validation/checked-from.js";

export type JsonRecord = { readonly [key: string]: unknown };

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ToolCallView {
  /** Position in the message's tool_calls. */
  readonly position: number;
  readonly fields: JsonRecord;
  /** The call's id when it is a string. */
  readonly id: string | undefined;
}

export interface MessageView {
  readonly index: number;
  /** The message's fields; empty when the message is not an object. */
  readonly fields: JsonRecord;
  readonly isObject: boolean;
  /** The role when it is a string. */
  readonly role: string | undefined;
  /** The entries of tool_calls that are objects, when tool_calls is an array. */
  readonly calls: ReadonlyArray<ToolCallView>;
  /** Whether tool_calls is a non-empty array: only then may content be null and tool messages follow. */
  readonly makesCalls: boolean;
}

// About twenty rules read the same request in one check, and an agent loop checks requests that
// share most of their (frozen) messages with the previous one: views are kept per request and
// reused only when every message is the same frozen object as when they were made.
// A windowed request (requestCheckedFrom) keeps only its window's messages: the rest are not read.
const viewCache = new WeakMap<object, { readonly checked: CheckedMessages; readonly messages: ReadonlyArray<unknown>; readonly views: MessageView[] }>();
const frozenViews = new WeakMap<object, MessageView>();

function viewOf(message: unknown, index: number): MessageView {
  const fields = isRecord(message) ? message : {};
  const toolCalls = fields.tool_calls;
  const calls: ToolCallView[] = [];
  if (Array.isArray(toolCalls)) {
    (toolCalls as unknown[]).forEach((call, position) => {
      if (isRecord(call)) calls.push({ position, fields: call, id: typeof call.id === "string" ? call.id : undefined });
    });
  }
  return {
    index,
    fields,
    isObject: isRecord(message),
    role: typeof fields.role === "string" ? fields.role : undefined,
    calls,
    makesCalls: Array.isArray(toolCalls) && toolCalls.length > 0,
  };
}

/** Whether the messages a check reads are still the frozen objects `cached` holds. */
function stillValid(cached: ReadonlyArray<unknown>, messages: ReadonlyArray<unknown>, checked: CheckedMessages): boolean {
  let position = 0;
  for (let index = nextChecked(checked, checked.from); index < messages.length; index = nextChecked(checked, index + 1)) {
    const message = messages[index];
    if (position === cached.length || message !== cached[position++] || (typeof message === "object" && message !== null && !Object.isFrozen(message))) return false;
  }
  return position === cached.length;
}

/** The view of one message, for a rule that reads only a message or two of a long request. */
function cachedViewOf(message: unknown, index: number): MessageView {
  const frozen = typeof message === "object" && message !== null && Object.isFrozen(message);
  let view = frozen ? frozenViews.get(message) : undefined;
  if (view === undefined || view.index !== index) {
    view = viewOf(message, index);
    if (frozen) frozenViews.set(message, view);
  }
  return view;
}

/** The message at `index` (negative counts from the end), or undefined when there is none. */
export function messageViewAt(request: unknown, index: number): MessageView | undefined {
  if (!isRecord(request) || !Array.isArray(request.messages)) return undefined;
  const messages = request.messages as unknown[];
  const at = index < 0 ? messages.length + index : index;
  const checked = checkedMessages(request);
  if (at < checked.from || at >= messages.length || at < 0 || nextChecked(checked, at) !== at) return undefined;
  return cachedViewOf(messages[at], at);
}

/** The messages of a request, or undefined when `messages` is not an array. */
export function messageViewsOf(request: unknown): MessageView[] | undefined {
  if (!isRecord(request) || !Array.isArray(request.messages)) return undefined;
  const messages = request.messages as unknown[];
  const checked = checkedMessages(request);
  const cached = viewCache.get(request);
  if (cached !== undefined && cached.checked.from === checked.from && cached.checked.skip === checked.skip && stillValid(cached.messages, messages, checked)) return cached.views;
  const views: MessageView[] = [];
  const viewed: unknown[] = [];
  // A frozen message at the same index reads the same in any request: the next request reuses its view.
  for (let index = nextChecked(checked, checked.from); index < messages.length; index = nextChecked(checked, index + 1)) {
    views.push(cachedViewOf(messages[index], index));
    viewed.push(messages[index]);
  }
  viewCache.set(request, { checked, messages: viewed, views });
  return views;
}

/** Where a violation is: the path inside the message and the message's index. */
export function at(message: MessageView, suffix = ""): { path: string; messageIndex: number } {
  return { path: `messages[${message.index}]${suffix}`, messageIndex: message.index };
}

/** The messages that answer `message`'s calls: the run of tool messages straight after it. */
export function toolRunAfter(messages: ReadonlyArray<MessageView>, message: MessageView): MessageView[] {
  const run: MessageView[] = [];
  // The views may start after message 0 and skip a stretch (see requestCheckedFrom): found by index.
  const offset = messages[0]?.index ?? 0;
  let position = message.index - offset;
  if (messages[position] !== message) position = positionOf(messages, message.index);
  if (position < 0) return run;
  for (position++; position < messages.length && messages[position]?.role === "tool"; position++) run.push(messages[position]!);
  return run;
}

/** The position of the view of message `index` among views in index order (-1 when there is none). */
function positionOf(views: ReadonlyArray<MessageView>, index: number): number {
  let low = 0;
  let high = views.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = views[middle]!.index;
    if (at === index) return middle;
    if (at < index) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** A value named in a violation message: short, and never throws, whatever the value (a cycle, a bigint). */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}
