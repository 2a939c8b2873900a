// Which of the three shapes a CompressionPipeline call was given: canonical items, stored messages (a
// role and an id, as a conversation store keeps them) or OpenAI Chat messages (a role and no id). The
// answer decides how the list is read and in which shape the compressed list is handed back.
import { type InputIssue, InvalidInputError, ITEM_TYPES } from "@ctxpipe/core";

export type MessageShape = "items" | "stored" | "openai";

export const INPUT_SOURCE = "CompressionPipeline message";

const SHAPE_NAMES: Record<MessageShape, string> = {
  items: "an item (a type, no message content)",
  stored: "a stored message (a role and an id)",
  openai: "an OpenAI Chat message (a role and no id)",
};

// Fields only a chat message has: an object with an item type and one of these is both at once.
const MESSAGE_FIELDS = ["content", "tool_calls", "tool_call_id"] as const;

const itemTypes = new Set<string>(ITEM_TYPES);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}` : `a ${typeof value}`;
}

function idOf(record: object): string | undefined {
  const id = (record as { id?: unknown }).id;
  return typeof id === "string" && id.length > 0 ? id : typeof id === "number" ? String(id) : undefined;
}

function shapeOf(record: unknown, index: number): MessageShape | InputIssue {
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return { index, id: undefined, path: [], message: `expected an item or a message object, got ${describe(record)}` };
  }
  const fields = record as Record<string, unknown>;
  const id = idOf(record);
  const type = fields.type;
  const hasRole = typeof fields.role === "string";
  if (typeof type === "string" && itemTypes.has(type)) {
    // Items carry a role too (it defaults from the type); message content is what they never have.
    const messageField = MESSAGE_FIELDS.find((field) => Object.hasOwn(fields, field));
    if (messageField === undefined) return "items";
    return { index, id, path: [messageField], message: `is ambiguous: it has an item type ("${type}") and a message's ${messageField}; give items (type, text) or messages (role, content), not both in one object` };
  }
  // A stored summary ({ kind: "summary" }) and a message-builder record ({ id, body }) are stored messages without a role of their own.
  const storedOnly = fields.kind === "summary" || (Object.hasOwn(fields, "body") && !hasRole);
  if (hasRole || storedOnly) return fields.id === undefined || fields.id === null ? "openai" : "stored";
  if (typeof type === "string") {
    return { index, id, path: ["type"], message: `unknown item type "${type}" and no message role; expected an item type (${ITEM_TYPES.join(", ")}) or a role` };
  }
  return { index, id, path: [], message: "has neither an item type nor a message role; expected an item ({ id, type, ... }) or a message ({ role, content, ... })" };
}

/**
 * The shape of the whole list. An empty list is "items". Throws InvalidInputError naming the index of
 * a record that is neither shape, both at once, or of another shape than the records before it.
 */
export function messageShapeOf(records: ReadonlyArray<unknown>): MessageShape {
  if (!Array.isArray(records)) {
    throw new InvalidInputError(INPUT_SOURCE, [{ index: 0, id: undefined, path: [], message: `expected an array of items or messages, got ${describe(records)}` }]);
  }
  let first: { shape: MessageShape; index: number } | undefined;
  for (let index = 0; index < records.length; index++) {
    const shape = shapeOf(records[index], index);
    if (typeof shape !== "string") throw new InvalidInputError(INPUT_SOURCE, [shape]);
    if (first === undefined) {
      first = { shape, index };
      continue;
    }
    if (shape !== first.shape) {
      const record = records[index] as object;
      const message = `is ${SHAPE_NAMES[shape]}, but the list began with ${SHAPE_NAMES[first.shape]} at index ${first.index}; pass one shape per call`;
      throw new InvalidInputError(INPUT_SOURCE, [{ index, id: idOf(record), path: [], message }]);
    }
  }
  return first?.shape ?? "items";
}
