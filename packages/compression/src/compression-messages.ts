// Reads what a CompressionPipeline call was given into items, and writes the compressed items back in
// the caller's shape: a record no strategy touched comes back as the caller's own object, a changed
// or new one (a cleared tool result, a summary) is written the way that shape writes it.
import { type Item, type ItemInput, importOpenAIMessages, importStoredMessages, parseInput, renderOpenAIChatMessage } from "@ctxpipe/core";
import { type MessageShape, messageShapeOf } from "./message-shape.js";

export interface ReadMessages {
  readonly shape: MessageShape;
  readonly records: ReadonlyArray<object>;
  /** What the pipeline builds from. */
  readonly items: ReadonlyArray<ItemInput>;
  /** For each of `items`, the index of the caller's record it was read from. */
  readonly recordOf: ReadonlyArray<number>;
  /** The role OpenAI messages gave the system prompt, for summaries written back. */
  readonly systemRole: "system" | "developer";
}

export function readMessages(records: ReadonlyArray<object>): ReadMessages {
  const shape = messageShapeOf(records);
  const systemRole = records.some((record) => (record as { role?: unknown }).role === "developer") ? "developer" : "system";
  if (shape === "items") return { shape, records, items: records as ReadonlyArray<ItemInput>, recordOf: records.map((_, index) => index), systemRole };
  if (shape === "openai") {
    // One item per message, in order.
    const items = importOpenAIMessages(records);
    return { shape, records, items, recordOf: items.map((_, index) => index), systemRole };
  }
  // A stored tool message with several results is several items: read record by record to know whose
  // they are (stored records are read independently). On a problem, the whole list is read again so
  // the error names the record's index in the caller's list.
  const items: Item[] = [];
  const recordOf: number[] = [];
  try {
    records.forEach((record, index) => {
      for (const item of importStoredMessages([record])) {
        items.push(item);
        recordOf.push(index);
      }
    });
  } catch (error) {
    importStoredMessages(records);
    throw error;
  }
  return { shape, records, items, recordOf, systemRole };
}

/** The id of the first item read from the caller's record at `index`. */
export function firstItemIdOf(read: ReadMessages, index: number): string | undefined {
  const position = read.recordOf.indexOf(index);
  return position === -1 ? undefined : read.items[position]!.id;
}

export interface WrittenMessages<TMessage> {
  readonly messages: TMessage[];
  /** Where each item's message is in `messages`. */
  readonly indexOfItem: ReadonlyMap<string, number>;
}

/** The compressed items in the shape they came in. */
export function writeMessages<TMessage>(read: ReadMessages, output: ReadonlyArray<Item>): WrittenMessages<TMessage> {
  // The pipeline reads the same item objects, and validation is cached per object, so an item no
  // strategy changed is the very object parseInput gives here.
  const parsed = parseInput(read.items);
  const sources = new Map<string, { item: Item; record: number }>();
  parsed.items.forEach((item, position) => {
    sources.set(item.id, { item, record: read.recordOf[parsed.indexes[position]!]! });
  });
  const itemsPerRecord = new Map<number, number>();
  for (const { record } of sources.values()) itemsPerRecord.set(record, (itemsPerRecord.get(record) ?? 0) + 1);
  const untouched = (item: Item | undefined) => item !== undefined && sources.get(item.id)?.item === item;

  const messages: unknown[] = [];
  const indexOfItem = new Map<string, number>();
  for (let position = 0; position < output.length; position++) {
    const item = output[position]!;
    const source = sources.get(item.id);
    if (untouched(item) && source !== undefined) {
      // A stored record read as several items comes back whole only when all of them do, together.
      const count = itemsPerRecord.get(source.record)!;
      const group = output.slice(position, position + count);
      if (group.length === count && group.every((member) => untouched(member) && sources.get(member.id)!.record === source.record)) {
        for (const member of group) indexOfItem.set(member.id, messages.length);
        messages.push(read.records[source.record]);
        position += count - 1;
        continue;
      }
    }
    const written = writeChanged(read, item, source === undefined || itemsPerRecord.get(source.record) !== 1 ? undefined : read.records[source.record]);
    if (written === undefined) continue;
    indexOfItem.set(item.id, messages.length);
    messages.push(written);
  }
  return { messages: messages as TMessage[], indexOfItem };
}

function writeChanged(read: ReadMessages, item: Item, source: object | undefined): unknown {
  if (read.shape === "items") return item;
  if (read.shape === "openai") return renderOpenAIChatMessage(item, { systemRole: read.systemRole });
  return storedMessageOf(item, source);
}

/** A changed or new item as a stored message that importStoredMessages reads back as the same item. */
function storedMessageOf(item: Item, source: object | undefined): Record<string, unknown> | undefined {
  const { mode, runId, agentId } = item.metadata;
  const common = { id: item.id, ...defined({ createdAt: item.createdAt, mode, runId, agentId }) };
  if (item.type === "summary") {
    const createdAt = item.createdAt ?? (item.compactedAt === undefined ? undefined : new Date(item.compactedAt).toISOString());
    return { ...common, ...defined({ createdAt }), role: "system", kind: "summary", content: item.text, coveredIds: [...item.coveredIds] };
  }
  // A cleared tool result: the caller's record with the new output, so its other fields stay.
  if (item.type === "tool-result") {
    if (source !== undefined) return { ...source, content: item.output };
    return { ...common, role: "tool", tool_call_id: item.callId, content: item.output, ...defined({ toolName: item.toolName, is_error: item.isError ? true : undefined }) };
  }
  const rendered = renderOpenAIChatMessage(item, { systemRole: "system" });
  if (rendered === undefined) return undefined;
  return source === undefined ? { ...common, ...rendered } : { ...source, content: rendered.content };
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
