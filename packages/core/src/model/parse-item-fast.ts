// The item schema's parse for canonical items of the common types (user, assistant, system,
// tool-result, error, run endings), by hand: it checks what the schema checks and builds the object the
// schema builds (a new object, fields in the schema's order). Anything else, or anything it is not
// sure of, returns undefined and goes through the schema, which names every problem.
import type { Item } from "./item.js";

/** How many items each path parsed (a test checks the hand-written path is still taken). */
export const itemParseCounts = { fast: 0, schema: 0 };
/** Off only in measurements that compare with the schema alone. */
export const itemParseFastPath = { enabled: true };

type Fields = Readonly<Record<string, unknown>>;

/** Each type's fields in the schema's order after id, createdAt, metadata, type and role; "?" marks optional ones. */
const TYPES: Readonly<Record<string, { role: string; fields: ReadonlyArray<readonly [string, "string" | "string?" | "boolean" | "calls" | "duration?" | "kind"]> }>> = Object.assign(
  Object.create(null),
  {
    user: { role: "user", fields: [["text", "string"]] },
    system: { role: "system", fields: [["text", "string"]] },
    assistant: {
      role: "assistant",
      fields: [
        ["text", "string"],
        ["toolCalls", "calls"],
      ],
    },
    "tool-result": {
      role: "tool",
      fields: [
        ["callId", "string"],
        ["toolName", "string?"],
        ["output", "string"],
        ["isError", "boolean"],
        ["durationMs", "duration?"],
        ["kind", "kind"],
      ],
    },
    error: { role: "assistant", fields: [["text", "string"]] },
    "task-completed": { role: "assistant", fields: [["text", "string"]] },
    "task-abandoned": {
      role: "assistant",
      fields: [
        ["reason", "string?"],
        ["text", "string"],
      ],
    },
    "task-terminated": {
      role: "assistant",
      fields: [
        ["terminatedBy", "string?"],
        ["text", "string"],
      ],
    },
  },
);

const METADATA_TEXT = ["mode", "runId", "agentId"] as const;
const METADATA_FLAGS = ["includeInContext", "pinned"] as const;
const CALL_KEYS = new Set(["id", "name", "arguments", "kind"]);

const isPlain = (value: unknown): value is Fields => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** Whether every own key of `value` is in `allowed` and none holds undefined (the schema's handling of those is left to it). */
function onlyKeys(value: Fields, allowed: (key: string) => boolean): boolean {
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  for (const key of Object.getOwnPropertyNames(value)) if (!allowed(key) || value[key] === undefined) return false;
  return true;
}

function metadataOf(value: unknown): Record<string, unknown> | undefined {
  if (!isPlain(value)) return undefined;
  const metadata: Record<string, unknown> = {};
  let count = 0;
  for (const key of METADATA_TEXT) {
    if (!Object.hasOwn(value, key)) continue;
    if (typeof value[key] !== "string") return undefined;
    metadata[key] = value[key];
    count++;
  }
  if (Object.hasOwn(value, "priority")) {
    const priority = value.priority;
    if (typeof priority !== "number" || !Number.isFinite(priority)) return undefined;
    metadata.priority = priority;
    count++;
  }
  for (const key of METADATA_FLAGS) {
    if (!Object.hasOwn(value, key)) continue;
    if (typeof value[key] !== "boolean") return undefined;
    metadata[key] = value[key];
    count++;
  }
  // metadata.extra (and any other key) is the schema's.
  return count === Object.getOwnPropertyNames(value).length && Object.getOwnPropertySymbols(value).length === 0 ? metadata : undefined;
}

function callsOf(value: unknown): Array<Record<string, unknown>> | undefined {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return undefined;
  const calls: Array<Record<string, unknown>> = [];
  for (let index = 0; index < value.length; index++) {
    if (!Object.hasOwn(value, index)) return undefined;
    const call: unknown = value[index];
    if (!isPlain(call) || !onlyKeys(call, (key) => CALL_KEYS.has(key))) return undefined;
    const { id, name, arguments: args, kind } = call;
    if (typeof id !== "string" || typeof name !== "string" || name.length === 0 || typeof args !== "string" || kind !== "tool") return undefined;
    calls.push({ id, name, arguments: args, kind });
  }
  return calls;
}

/** What the item schema gives for a canonical item of a common type, or undefined to let the schema parse it. */
export function parseItemFast(input: unknown): Item | undefined {
  if (!itemParseFastPath.enabled || !isPlain(input)) return undefined;
  const shape = typeof input.type === "string" && Object.hasOwn(input, "type") ? TYPES[input.type] : undefined;
  if (shape === undefined || input.role !== shape.role) return undefined;
  const { id, createdAt } = input;
  if (typeof id !== "string" || id.length === 0 || (Object.hasOwn(input, "createdAt") && typeof createdAt !== "string")) return undefined;
  const metadata = metadataOf(input.metadata);
  if (metadata === undefined) return undefined;
  const item: Record<string, unknown> = { id };
  if (createdAt !== undefined) item.createdAt = createdAt;
  item.metadata = metadata;
  item.type = input.type;
  item.role = shape.role;
  let count = createdAt === undefined ? 4 : 5;
  for (const [key, kind] of shape.fields) {
    const present = Object.hasOwn(input, key);
    const value = input[key];
    // Defaults (text, toolCalls, isError, kind) left out are the schema's to fill.
    if (!present) {
      if (kind.endsWith("?")) continue;
      return undefined;
    }
    count++;
    if (kind === "string" || kind === "string?") {
      if (typeof value !== "string") return undefined;
      item[key] = value;
    } else if (kind === "boolean") {
      if (typeof value !== "boolean") return undefined;
      item[key] = value;
    } else if (kind === "duration?") {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
      item[key] = value;
    } else if (kind === "kind") {
      if (value !== "tool") return undefined;
      item[key] = value;
    } else {
      const calls = callsOf(value);
      if (calls === undefined) return undefined;
      item[key] = calls;
    }
  }
  // Any field the type does not have (reasoning, attachments, code, …) or one holding undefined is the schema's.
  if (!onlyKeys(input, () => true) || Object.getOwnPropertyNames(input).length !== count) return undefined;
  itemParseCounts.fast++;
  return item as Item;
}
