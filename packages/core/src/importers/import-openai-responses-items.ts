// Imports a conversation stored as OpenAI Responses API items (the `input` items of a request and the
// `output` items of a response) into canonical items: one item per user, system or developer message
// and per function_call_output, one assistant item per assistant turn. What the item model has no
// field for goes to `metadata.extra.openaiResponses`, so the "openai-responses" renderer sends the
// history back as the API gave it, and every other renderer can build it too.
import { z } from "zod";
import type { Attachment } from "../model/attachment.js";
import type { Item, ItemInput } from "../model/item.js";
import { type OpenAIResponsesMessageWords, openAIResponsesTurnText } from "../model/openai-responses-content.js";
import { OPENAI_RESPONSES_EXTRA_KEY, type OpenAIResponsesExtra, type OpenAIResponsesSequenceEntry } from "../model/openai-responses-extra.js";
import type { ToolCallInput } from "../model/tool-call.js";
import { parsePluginOptions } from "../plugins/parse-plugin-options.js";
import { describeValue } from "./describe-value.js";
import { ExtraFields } from "./extra-fields.js";
import { isPlainObject } from "./is-plain-object.js";
import { keepOtherParts } from "./keep-other-parts.js";
import { metadataWithExtra } from "./metadata-with-extra.js";
import type { RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";
import { readResponsesContent, readResponsesOutput } from "./read-responses-content.js";
import { isUntypedItemReference, readResponsesLayout } from "./read-responses-layout.js";
import { runImport } from "./run-import.js";
import { withoutUndefined } from "./without-undefined.js";

const SOURCE = "Responses item";
const INPUT_ROLES = ["user", "system", "developer", "assistant"] as const;
const PHASES = ["commentary", "final_answer"] as const;

const optionsSchema = z.object({
  /** Prefix of the generated item ids. Default "item-". */
  idPrefix: z.string().default("item-"),
});

export type ImportOpenAIResponsesItemsOptions = z.input<typeof optionsSchema>;

type VerbatimItem = { readonly type: string; readonly [field: string]: unknown };

/** An assistant turn being read, record by record. */
interface TurnDraft {
  /** What each of the turn's messages says. */
  readonly messages: OpenAIResponsesMessageWords[];
  readonly toolCalls: ToolCallInput[];
  readonly reasoning: Array<{ text: string }>;
  readonly sequence: OpenAIResponsesSequenceEntry[];
  /** Leftover fields of the turn's records, already named (see keepLeftovers). */
  readonly extra: ExtraFields;
  /**
   * The same for the messages' content parts (annotations, logprobs, parts of other types), kept only
   * when the turn keeps no sequence: a sequence's message references hold their content whole.
   */
  readonly contentExtra: ExtraFields;
  readonly otherParts: unknown[];
}

/**
 * Converts stored Responses items to items. Throws InvalidInputError naming the index, stored id and
 * field of every problem; fields it does not know are kept in `metadata.extra`.
 *
 * - A `message` (with or without `type`) of role user → user (input_text joined with "\n", images and
 *   files by URL, data or file id → attachments); system or developer → system. A content list with
 *   parts the item has no place for is kept whole in `metadata.extra.openaiResponses.content`.
 * - A run of consecutive reasoning items, assistant messages and function_calls (with any items of
 *   other types between them, and the built-in tool calls that end it) → one assistant item: the
 *   messages' texts (openAIResponsesTurnText), the calls (`id` = `call_id`), one reasoning entry per
 *   reasoning item (its summary texts joined with "\n"). `metadata.extra.openaiResponses.sequence`
 *   lists the turn's stored items in order (messages as references with their `id`, `status`, `phase`
 *   and own `content`, calls with their `id`, `status` and `namespace`; everything else verbatim)
 *   whenever the turn holds more than a plain message and its calls. A run with no message and no call
 *   (reasoning and a built-in call) makes no item: it is kept verbatim, as items of other types are.
 * - A `function_call_output` → tool-result; its tool name is its own `name`, else the call's. An output
 *   given as a list of parts imports as openAIResponsesOutputText (its text parts, a marker per image
 *   or file), the list kept in `outputParts`.
 * - Items of any other type outside a turn are kept verbatim in the next item's `before` (the last
 *   item's `after` at the end of the log).
 *
 * Ids are `${idPrefix}${index}`, index = the position of the item's first stored record, so they stay
 * the same while the log grows.
 */
export function importOpenAIResponsesItems(items: unknown, options: ImportOpenAIResponsesItemsOptions = {}): Item[] {
  const { idPrefix } = parsePluginOptions("importOpenAIResponsesItems", optionsSchema, options);
  // runImport refuses anything but an array before reading it; the layout needs one to look ahead.
  const records: ReadonlyArray<unknown> = Array.isArray(items) ? items : [];
  const layout = readResponsesLayout(records);
  // Tool outputs name their call only: the tool name is found through the call they answer.
  const toolNames = new Map<string, string>();
  let before: VerbatimItem[] = [];
  let turn: TurnDraft | undefined;

  /** The Responses extra of an item made now: what waited for it, and what follows the last item. */
  const placement = (index: number): Pick<OpenAIResponsesExtra, "before" | "after"> => {
    const placed: { before?: VerbatimItem[]; after?: VerbatimItem[] } = {};
    if (before.length > 0) placed.before = before;
    before = [];
    if (index === layout.lastItemRecord && index < records.length - 1) placed.after = records.slice(index + 1) as VerbatimItem[];
    return placed;
  };

  return runImport(SOURCE, items, (record: Record<string, unknown>, reader: RecordReader): ItemInput[] => {
    const place = layout.places[reader.index];
    if (place === undefined) return [];
    if (place.kind === "verbatim") {
      readVerbatim(reader, record);
      if (layout.lastItemRecord === -1 && reader.index === records.length - 1) {
        reader.issue([], "no message, function call or output in the log to keep this item with: a log needs at least one of those");
      }
      if (reader.index < layout.lastItemRecord) before.push(record as VerbatimItem);
      return [];
    }
    if (place.kind === "own") return readOwnItem(record, reader, `${idPrefix}${reader.index}`, toolNames, placement);
    if (reader.index === place.first) turn = { messages: [], toolCalls: [], reasoning: [], sequence: [], extra: new ExtraFields(), contentExtra: new ExtraFields(), otherParts: [] };
    if (turn === undefined) return [];
    readTurnRecord(record, reader, turn, place.first !== place.last, toolNames);
    if (reader.index < place.last) return [];
    const done = turn;
    turn = undefined;
    return [assistantItem(`${idPrefix}${place.first}`, done, placement(reader.index))];
  });
}

/** An item of a type the importer has no model for: kept as it is, once checked to have a type. */
function readVerbatim(reader: RecordReader, record: Record<string, unknown>): void {
  if (typeof record.type !== "string" && !isUntypedItemReference(record)) reader.issue(["type"], `expected the item type (a string), got ${describeValue(record.type)}`);
}

function readOwnItem(
  record: Record<string, unknown>,
  reader: RecordReader,
  id: string,
  toolNames: ReadonlyMap<string, string>,
  placement: (index: number) => Pick<OpenAIResponsesExtra, "before" | "after">,
): ItemInput[] {
  const extra = new ExtraFields();
  const fields = reader.open(record, [], extra);
  const type = fields.peek("type");
  if (type === "function_call_output") {
    fields.take("type");
    // "" is kept, as the other importers keep it: repair-orphans pairs such outputs by position.
    const callId = fields.string("call_id", { required: "a function_call_output needs the call_id of the function_call it answers" });
    const ownName = fields.string("name", { nonEmpty: true });
    const output = readResponsesOutput(reader, fields);
    if (callId === undefined || output === undefined) return [];
    const toolName = ownName ?? (callId === "" ? undefined : toolNames.get(callId));
    const responses: OpenAIResponsesExtra = { ...(output.parts === undefined ? {} : { outputParts: output.parts as VerbatimItem[] }), ...placement(reader.index) };
    keepResponsesExtra(extra, responses);
    return [{ id, type: "tool-result", callId, output: output.text, ...withoutUndefined({ toolName }), metadata: metadataWithExtra({}, extra) }];
  }
  if (type !== undefined && type !== null && type !== "message") {
    // Only a record the layout could not place gets here: neither a known type nor a message.
    fields.issue("type", `expected the item type (a string), got ${describeValue(type)}`);
    return [];
  }
  if (type === undefined && !fields.has("role")) {
    reader.issue([], 'expected a Responses item: an object with a "type", or a message with a "role"');
    return [];
  }
  fields.take("type");
  const role = fields.oneOf("role", INPUT_ROLES, { required: "a message needs a role" });
  if (role === undefined || role === "assistant") return [];
  // The content's own leftover fields are read apart: a content list kept whole already holds them.
  const contentExtra = new ExtraFields();
  const content = readResponsesContent(reader, fields, contentExtra, role === "user" ? "user" : "system");
  const stored = content.otherParts.length > 0 ? content.list : undefined;
  if (stored === undefined) extra.absorb(contentExtra);
  keepResponsesExtra(extra, { ...(stored === undefined ? {} : { content: stored as VerbatimItem[] }), ...placement(reader.index) });
  if (role === "user") {
    const attachments: { attachments?: Attachment[] } = content.attachments.length > 0 ? { attachments: content.attachments } : {};
    return [{ id, type: "user", text: content.text, ...attachments, metadata: metadataWithExtra({}, extra) }];
  }
  return [{ id, type: "system", text: content.text, metadata: metadataWithExtra({}, extra) }];
}

/** Reads one record of an assistant turn into the draft. */
function readTurnRecord(record: Record<string, unknown>, reader: RecordReader, turn: TurnDraft, namedLeftovers: boolean, toolNames: Map<string, string>): void {
  const type = record.type;
  if (type === "reasoning") {
    readReasoning(reader, record, turn);
    return;
  }
  if (type !== "function_call" && type !== "message" && type !== undefined && type !== null) {
    // An item of another type inside the turn: sent back verbatim at its place.
    turn.sequence.push(record as VerbatimItem);
    return;
  }
  const extra = new ExtraFields();
  const contentExtra = new ExtraFields();
  const fields = reader.open(record, [], extra);
  if (type === "function_call") readFunctionCall(fields, turn, toolNames);
  else readAssistantMessage(reader, fields, contentExtra, turn);
  const recordIndex = namedLeftovers ? reader.index : undefined;
  keepLeftovers(turn.extra, extra, recordIndex);
  keepLeftovers(turn.contentExtra, contentExtra, recordIndex);
}

function readAssistantMessage(reader: RecordReader, fields: RecordFields, contentExtra: ExtraFields, turn: TurnDraft): void {
  fields.take("type");
  fields.take("role");
  const id = fields.string("id", { nonEmpty: true });
  const status = fields.string("status");
  // An unknown phase is not refused (the API may add some); it stays in metadata.extra.
  const phaseValue = fields.peek("phase");
  if (phaseValue === null || (PHASES as ReadonlyArray<unknown>).includes(phaseValue)) fields.take("phase");
  const phase = typeof phaseValue === "string" && (PHASES as ReadonlyArray<string>).includes(phaseValue) ? (phaseValue as (typeof PHASES)[number]) : undefined;
  const stored = fields.peek("content");
  const content = readResponsesContent(reader, fields, contentExtra, "assistant");
  turn.messages.push({ text: content.text, refusal: content.refusal });
  turn.otherParts.push(...content.otherParts);
  // The message's own content: sent back as it was (citations, refusal parts) while the turn's text is unchanged.
  const kept = typeof stored === "string" || Array.isArray(stored) ? { content: stored as string | VerbatimItem[] } : {};
  turn.sequence.push({ type: "message", ...withoutUndefined({ id, status, phase }), ...kept });
}

function readFunctionCall(fields: RecordFields, turn: TurnDraft, toolNames: Map<string, string>): void {
  fields.take("type");
  // "" is kept, as the other importers keep it: repair-orphans pairs such calls by position.
  const callId = fields.string("call_id", { required: "a function_call needs its call_id" });
  const name = fields.string("name", { required: "a function_call needs the function name", nonEmpty: true });
  const args = fields.json("arguments", "{}");
  const id = fields.string("id", { nonEmpty: true });
  const status = fields.string("status");
  // The namespace of a tool of a namespace (MCP servers, tool groups): the call goes back naming it.
  const namespace = fields.string("namespace");
  if (callId === undefined || name === undefined) return;
  turn.toolCalls.push({ id: callId, name, arguments: args });
  if (callId !== "") toolNames.set(callId, name);
  turn.sequence.push({ type: "function_call", call_id: callId, ...withoutUndefined({ id, status, namespace }) });
}

/** A reasoning item is sent back verbatim; its summary is the item's reasoning text. */
function readReasoning(reader: RecordReader, record: Record<string, unknown>, turn: TurnDraft): void {
  // Checked, not kept field by field: the sequence holds the stored item itself.
  const fields = reader.open(record, [], new ExtraFields());
  fields.string("id", { required: "a reasoning item needs its id (rs_…), which the API asks for when it is sent back", nonEmpty: true });
  fields.string("encrypted_content");
  const summary = fields.array("summary") ?? [];
  const texts: string[] = [];
  summary.forEach((part: unknown, position) => {
    if (!isPlainObject(part) || typeof part.text !== "string") {
      reader.issue(["summary", position], `expected a summary part { type: "summary_text", text }, got ${isPlainObject(part) ? `a part whose text is ${describeValue(part.text)}` : describeValue(part)}`);
      return;
    }
    texts.push(part.text);
  });
  fields.array("content");
  turn.reasoning.push({ text: texts.join("\n") });
  turn.sequence.push(record as VerbatimItem);
}

/**
 * Moves one record's unread fields to the turn's. In a turn made of several stored items each field is
 * named after its record (`[4].content[0].annotations`), so the fields of two records never mix.
 */
function keepLeftovers(into: ExtraFields, from: ExtraFields, recordIndex: number | undefined): void {
  const fields = from.toRecord();
  if (fields === undefined) return;
  for (const [key, value] of Object.entries(fields)) into.keep(recordIndex === undefined ? key : `[${recordIndex}].${key}`, value);
}

function keepResponsesExtra(extra: ExtraFields, responses: OpenAIResponsesExtra): void {
  if (Object.keys(responses).length > 0) extra.keep(OPENAI_RESPONSES_EXTRA_KEY, responses);
}

function assistantItem(id: string, turn: TurnDraft, placed: Pick<OpenAIResponsesExtra, "before" | "after">): ItemInput {
  // The renderer computes the same text from the sequence, to know the item still says what was stored.
  const text = openAIResponsesTurnText(turn.messages);
  const refusal = turn.messages.flatMap((message) => (message.refusal === undefined ? [] : [message.refusal])).join("\n");
  // As for Chat Completions: a refusal is the text of a message that has no other; beside text it is kept here.
  if (refusal.length > 0 && text !== refusal) turn.extra.keep("refusal", refusal);
  const keepSequence = needsSequence(turn.sequence);
  if (!keepSequence) {
    turn.extra.absorb(turn.contentExtra);
    keepOtherParts(turn.extra, turn.otherParts);
  }
  const responses: OpenAIResponsesExtra = { ...(keepSequence ? { sequence: turn.sequence } : {}), ...placed };
  keepResponsesExtra(turn.extra, responses);
  return {
    id,
    type: "assistant",
    text,
    toolCalls: turn.toolCalls,
    ...(turn.reasoning.length > 0 ? { reasoning: turn.reasoning } : {}),
    metadata: metadataWithExtra({}, turn.extra),
  };
}

/**
 * Whether the turn holds anything the default rendering (the message, then the calls) would not
 * give back: ids, statuses, phases, namespaces, reasoning or other items, several messages, a message
 * after a call. A message's content alone is not such a thing: without an id, a message goes back as
 * its text.
 */
function needsSequence(sequence: ReadonlyArray<OpenAIResponsesSequenceEntry>): boolean {
  let messages = 0;
  let calls = 0;
  for (const entry of sequence) {
    if (entry.type === "message") {
      if (++messages > 1 || calls > 0) return true;
    } else if (entry.type === "function_call") calls++;
    else return true;
    if (Object.keys(entry).some((key) => key !== "type" && key !== "call_id" && key !== "content")) return true;
  }
  return false;
}
