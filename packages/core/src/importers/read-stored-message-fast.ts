// The common stored message shapes (user, assistant text and calls, tool results answering a
// tool_call_id, system, error and run-ending records, with only the fields StoredMessage lists) read by
// hand, straight into the item the general reader plus the item schema would give: the same fields, in
// the schema's key order. Anything it is not sure of returns undefined, and the general reader reads
// the record, so every problem keeps its exact message.
import type { Item } from "../model/item.js";

/** How many records each path read (a test checks the fast path is still taken). */
export const storedReadCounts = { fast: 0, general: 0 };

type Fields = Readonly<Record<string, unknown>>;
/** A field's value: own fields only, as the general reader reads them. */
const get = (record: Fields, key: string): unknown => (Object.hasOwn(record, key) ? record[key] : undefined);
const absent = (value: unknown) => value === undefined || value === null;

/** The fields each kind of record may carry for the fast path; any other field goes to the general reader. */
const COMMON = ["id", "createdAt", "mode", "runId", "agentId", "priority", "includeInContext", "pinned", "role", "content"];
const FIELDS = {
  plain: new Set(COMMON),
  assistant: new Set([...COMMON, "tool_calls", "partType", "error"]),
  failed: new Set([...COMMON, "partType", "error"]),
  ending: new Set([...COMMON, "partType"]),
  abandoned: new Set([...COMMON, "partType", "reason"]),
  terminated: new Set([...COMMON, "partType", "terminatedBy"]),
  tool: new Set([...COMMON, "tool_call_id", "partType", "is_error", "error", "toolName", "duration"]),
} as const;

const ENDINGS: Readonly<Record<string, "task-completed" | "task-abandoned" | "task-terminated">> = Object.assign(Object.create(null), {
  task_completed: "task-completed",
  task_abandoned: "task-abandoned",
  task_terminated: "task-terminated",
});

function onlyFields(record: Fields, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(record)) if (!allowed.has(key)) return false;
  return true;
}

/** Optional text field: undefined when absent, false when it is not text. */
function optionalString(record: Fields, key: string): string | undefined | false {
  const value = get(record, key);
  if (absent(value)) return undefined;
  return typeof value === "string" ? value : false;
}

function optionalBoolean(record: Fields, key: string): boolean | undefined | null {
  const value = get(record, key);
  if (absent(value)) return undefined;
  return typeof value === "boolean" ? value : null;
}

/** Text content: a string, nothing, or parts that are all `{ type: "text", text }`; undefined otherwise. */
function contentText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (absent(value)) return "";
  if (!Array.isArray(value)) return undefined;
  const texts: string[] = [];
  for (let index = 0; index < value.length; index++) {
    const part: unknown = value[index];
    if (typeof part !== "object" || part === null || Array.isArray(part)) return undefined;
    const keys = Object.keys(part);
    if (keys.length !== 2 || !Object.hasOwn(part, "type") || !Object.hasOwn(part, "text")) return undefined;
    const { type, text } = part as { type: unknown; text: unknown };
    if (type !== "text" || typeof text !== "string") return undefined;
    texts.push(text);
  }
  return texts.join("\n");
}

interface ToolCallOut {
  id: string;
  name: string;
  arguments: string;
  kind: "tool";
}

/** `tool_calls` in the nested or the flat form with text arguments; undefined for anything else. */
function toolCalls(value: unknown): ToolCallOut[] | undefined {
  if (absent(value)) return [];
  if (!Array.isArray(value)) return undefined;
  const calls: ToolCallOut[] = [];
  for (let index = 0; index < value.length; index++) {
    const call: unknown = value[index];
    if (typeof call !== "object" || call === null || Array.isArray(call)) return undefined;
    let count = 0;
    for (const key of Object.keys(call)) {
      if (key !== "id" && key !== "type" && key !== "function" && key !== "name" && key !== "arguments") return undefined;
      count++;
    }
    const id = get(call as Fields, "id");
    if (typeof id !== "string") return undefined;
    let source: Fields = call as Fields;
    if (Object.hasOwn(call, "function") || Object.hasOwn(call, "type")) {
      const type = get(call as Fields, "type");
      const fn = get(call as Fields, "function");
      if ((type !== "function" && type !== undefined) || count !== (type === undefined ? 2 : 3)) return undefined;
      if (typeof fn !== "object" || fn === null || Array.isArray(fn)) return undefined;
      for (const key of Object.keys(fn)) if (key !== "name" && key !== "arguments") return undefined;
      source = fn as Fields;
    } else if (Object.hasOwn(call, "name") === false) return undefined;
    const name = get(source, "name");
    const args = get(source, "arguments");
    if (typeof name !== "string" || name.length === 0) return undefined;
    if (typeof args !== "string" && args !== undefined) return undefined;
    calls.push({ id, name, arguments: args ?? "{}", kind: "tool" });
  }
  return calls;
}

/**
 * The items of a common stored record, built as importStoredMessages' general reader and the item
 * schema build them; undefined when the record is anything else (the general reader then reads it).
 */
export function readStoredMessageFast(record: Fields): Item[] | undefined {
  const rawId = get(record, "id");
  let id: string;
  if (typeof rawId === "string" && rawId.length > 0) id = rawId;
  else if (typeof rawId === "number" && Number.isFinite(rawId)) id = String(rawId);
  else return undefined;
  // Dates other than text (epoch numbers, Date, $date) are converted by the general reader.
  const createdAt = optionalString(record, "createdAt");
  const mode = optionalString(record, "mode");
  const runId = optionalString(record, "runId");
  const agentId = optionalString(record, "agentId");
  if (createdAt === false || mode === false || runId === false || agentId === false) return undefined;
  const priority = get(record, "priority");
  if (!absent(priority) && (typeof priority !== "number" || !Number.isFinite(priority))) return undefined;
  const includeInContext = optionalBoolean(record, "includeInContext");
  const pinned = optionalBoolean(record, "pinned");
  if (includeInContext === null || pinned === null) return undefined;
  const text = contentText(get(record, "content"));
  if (text === undefined) return undefined;

  // The item schema's key order: id, createdAt, metadata, type, role, then the type's own fields.
  const metadata: Record<string, unknown> = {};
  if (mode !== undefined) metadata.mode = mode;
  if (runId !== undefined) metadata.runId = runId;
  if (agentId !== undefined) metadata.agentId = agentId;
  if (!absent(priority)) metadata.priority = priority;
  if (includeInContext !== undefined) metadata.includeInContext = includeInContext;
  if (pinned !== undefined) metadata.pinned = pinned;
  const item = (fields: Record<string, unknown>): Item[] => {
    storedReadCounts.fast++;
    const head: Record<string, unknown> = { id };
    if (createdAt !== undefined) head.createdAt = createdAt;
    head.metadata = metadata;
    return [Object.assign(head, fields) as Item];
  };

  switch (get(record, "role")) {
    case "user":
      return onlyFields(record, FIELDS.plain) ? item({ type: "user", role: "user", text }) : undefined;
    case "system":
    case "developer":
      return onlyFields(record, FIELDS.plain) ? item({ type: "system", role: "system", text }) : undefined;
    case "assistant": {
      const partType = get(record, "partType");
      const ending = typeof partType === "string" ? ENDINGS[partType] : undefined;
      if (ending !== undefined) return readEnding(record, ending, text, item);
      // Any other partType (even an own undefined) is not read, so it stays in metadata.extra.
      if (Object.hasOwn(record, "partType") && partType !== "error") return undefined;
      const error = optionalBoolean(record, "error");
      if (error === null) return undefined;
      if (partType === "error" || error === true) {
        return onlyFields(record, FIELDS.failed) ? item({ type: "error", role: "assistant", text }) : undefined;
      }
      if (!onlyFields(record, FIELDS.assistant)) return undefined;
      const calls = toolCalls(get(record, "tool_calls"));
      return calls === undefined ? undefined : item({ type: "assistant", role: "assistant", text, toolCalls: calls });
    }
    case "tool": {
      // A result named in its content (tool_use_id) is the general reader's.
      const callId = get(record, "tool_call_id");
      if (typeof callId !== "string" || !onlyFields(record, FIELDS.tool)) return undefined;
      const partType = get(record, "partType");
      if (Object.hasOwn(record, "partType") && partType !== "tool_result") return undefined;
      const isError = optionalBoolean(record, "is_error");
      const error = optionalBoolean(record, "error");
      const toolName = optionalString(record, "toolName");
      const duration = get(record, "duration");
      if (isError === null || error === null || toolName === false) return undefined;
      if (!absent(duration) && (typeof duration !== "number" || !Number.isFinite(duration) || duration < 0)) return undefined;
      const fields: Record<string, unknown> = { type: "tool-result", role: "tool", callId };
      if (toolName !== undefined) fields.toolName = toolName;
      fields.output = text;
      fields.isError = isError === true || error === true;
      if (!absent(duration)) fields.durationMs = duration;
      fields.kind = "tool";
      return item(fields);
    }
    default:
      return undefined;
  }
}

function readEnding(record: Fields, type: "task-completed" | "task-abandoned" | "task-terminated", text: string, item: (fields: Record<string, unknown>) => Item[]): Item[] | undefined {
  const fields: Record<string, unknown> = { type, role: "assistant" };
  if (type === "task-abandoned") {
    const reason = optionalString(record, "reason");
    if (reason === false || !onlyFields(record, FIELDS.abandoned)) return undefined;
    if (reason !== undefined) fields.reason = reason;
  } else if (type === "task-terminated") {
    const terminatedBy = optionalString(record, "terminatedBy");
    if (terminatedBy === false || !onlyFields(record, FIELDS.terminated)) return undefined;
    if (terminatedBy !== undefined) fields.terminatedBy = terminatedBy;
  } else if (!onlyFields(record, FIELDS.ending)) return undefined;
  fields.text = text;
  return item(fields);
}
