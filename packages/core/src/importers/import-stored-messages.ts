// Imports stored ConversationMessage records (the stored message shape chat and run mode persist:
// OpenAI-like messages with `tool_calls`, an id, a date and run metadata) and the message builder's
// MessageEntity records (`{ id, body }`, the message in `body`) into canonical items, one item per
// message.
import type { Item, ItemInput } from "../model/item.js";
import { describeValue } from "./describe-value.js";
import { ExtraFields } from "./extra-fields.js";
import { FrozenRecordMemo } from "./frozen-record-memo.js";
import { keepOtherParts } from "./keep-other-parts.js";
import { metadataWithExtra } from "./metadata-with-extra.js";
import { type ChatContentOptions, readChatContent } from "./read-chat-content.js";
import { readChatToolCalls } from "./read-chat-tool-calls.js";
import { readStoredMessageFast, storedReadCounts } from "./read-stored-message-fast.js";
import type { RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";
import { runImport } from "./run-import.js";
import { withoutUndefined } from "./without-undefined.js";

const SOURCE = "stored message";
// "developer" is what newer OpenAI models call the system role; apps store it as it came.
const ROLES = ["user", "assistant", "system", "developer", "tool"] as const;

// Chat and run mode only store images on user messages; any other part is kept in metadata.extra.parts.
const USER_CONTENT: ChatContentOptions = { images: true, files: false, refusals: false };
const TEXT_CONTENT: ChatContentOptions = { images: false, files: false, refusals: false };
// The message builder stores Anthropic-style blocks too: tool_use parts on the assistant, and a tool
// message whose content carries the tool_use_id it answers.
const ASSISTANT_CONTENT: ChatContentOptions = { ...TEXT_CONTENT, toolUses: true };
const TOOL_RESULT_CONTENT: ChatContentOptions = { ...TEXT_CONTENT, toolResults: true };

/**
 * The mode of a record stored without one: chat mode's calls run as agent unless they say "chat", so
 * what they persisted without a mode was written in agent mode.
 */
export const DEFAULT_STORED_MODE = "agent";

/**
 * The session mode an item was written in: its stored `mode`, or DEFAULT_STORED_MODE when the record
 * had none. Read the mode through this; `metadata.mode` itself stays unset, so nothing is added to
 * what the user stored and a record written back out is the record that was read.
 */
export function storedMessageMode(item: { readonly metadata?: { readonly mode?: string | undefined } | undefined }): string {
  return item.metadata?.mode ?? DEFAULT_STORED_MODE;
}

/**
 * Converts stored conversation messages to items. Throws InvalidInputError naming the index, id and
 * field of every problem; fields it does not know are kept in `metadata.extra`.
 *
 * - A record `{ id, body }` without a role (the message builder's MessageEntity) is the message in
 *   `body`, an object or its JSON text; the record's own fields (id, createdAt, run metadata) come
 *   first, the body's fill what the record lacks.
 * - role "developer" is a system message, as "system" is.
 * - A record without `mode` keeps `metadata.mode` unset; storedMessageMode() reads it as "agent".
 * - An assistant's calls are its `tool_calls` (or `toolCalls`) and its `tool_use` content parts.
 * - A tool message answers `tool_call_id`, or, without one, the `tool_use_id` of its content (a
 *   `{ tool_use_id, content }` object, or `tool_result` parts: one result each).
 * - A call id or tool_call_id may be "" (servers that give calls no id): repair-orphans pairs them by position.
 * - An assistant message with partType "task_completed", "task_abandoned" or "task_terminated" records
 *   how a run ended: a task-completed, task-abandoned (with `reason`) or task-terminated (with
 *   `terminatedBy`) item whose text is the record's content.
 * - A deep-frozen record (JsonlStore and PostgresStore hand out the same frozen objects for a log that
 *   only grew) is read once: importing it again gives the same item objects, frozen, so a pipeline
 *   reuses what it worked out for them. Records that are not deep-frozen are read on every call.
 */
export function importStoredMessages(messages: unknown): Item[] {
  return runImport(SOURCE, messages, readStoredMessage, frozenRecords, readStoredMessageFast);
}

/** Records never change once deep-frozen (as JsonlStore and PostgresStore hand them out): each is read once. */
const frozenRecords = new FrozenRecordMemo();

/** A MessageEntity: a body and no role of its own. */
const isEntity = (record: Record<string, unknown>) => Object.hasOwn(record, "body") && !Object.hasOwn(record, "role") && !Object.hasOwn(record, "kind");

/** The body of a MessageEntity: an object, or the JSON text of one (stores that keep it in a text column). */
function readBody(reader: RecordReader, entity: RecordFields, extra: ExtraFields): RecordFields | undefined {
  let body = entity.take("body");
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      entity.issue("body", "expected the message object or its JSON text, got text that is not JSON");
      return undefined;
    }
  }
  return reader.openObject(body, entity.at("body"), extra, "the message object or its JSON text");
}

/** The general reader: every shape, every problem named. Exported for the test that compares it with the fast path. */
export function readStoredMessage(record: Record<string, unknown>, reader: RecordReader): ItemInput[] {
  storedReadCounts.general++;
  const extra = new ExtraFields();
  const entity = reader.open(record, [], extra);
  const message = isEntity(record) ? readBody(reader, entity, extra) : entity;
  // The record's own field, or, for a MessageEntity that lacks it, the body's.
  const field = (key: string) => (message !== undefined && message !== entity && !entity.has(key) && message.has(key) ? message : entity);
  const id = field("id").id("id", { required: "a stored message needs an id" }) ?? "";
  const createdAt = field("createdAt").date("createdAt");
  const known = {
    mode: field("mode").string("mode"),
    runId: field("runId").string("runId"),
    agentId: field("agentId").string("agentId"),
    priority: field("priority").number("priority"),
    includeInContext: field("includeInContext").boolean("includeInContext"),
    pinned: field("pinned").boolean("pinned"),
  };
  if (message === undefined) return [];
  // Called last: metadata.extra is what is still unread at that point.
  const common = () => ({ id, ...withoutUndefined({ createdAt }), metadata: metadataWithExtra(known, extra) });

  if (message.peek("kind") === "summary") {
    message.take("kind");
    if (message.peek("role") === "system") message.take("role");
    const content = readChatContent(reader, message, extra, TEXT_CONTENT);
    keepOtherParts(extra, content.otherParts);
    const covered = readCoveredIds(reader, message, extra);
    return [{ type: "summary", text: content.text, ...covered, ...common() }];
  }

  const role = message.oneOf("role", ROLES, { required: "a stored message needs a role" });
  switch (role) {
    case undefined:
      return [];
    case "user": {
      const content = readChatContent(reader, message, extra, USER_CONTENT);
      keepOtherParts(extra, content.otherParts);
      const attachments = content.attachments.length > 0 ? { attachments: content.attachments } : {};
      return [{ type: "user", text: content.text, ...attachments, ...common() }];
    }
    case "system":
    case "developer": {
      const content = readChatContent(reader, message, extra, TEXT_CONTENT);
      keepOtherParts(extra, content.otherParts);
      return [{ type: "system", text: content.text, ...common() }];
    }
    case "assistant": {
      // Only a string names an ending: String() of an object without a prototype throws.
      const partType = field("partType").peek("partType");
      const ending = typeof partType === "string" ? TASK_PART_TYPES[partType] : undefined;
      if (ending !== undefined) return readTaskEnding(reader, message, extra, ending, field, common);
      // Chat and run mode persist an LLM failure as an assistant message so the user can say "continue".
      const failed = field("partType").peek("partType") === "error" || field("error").peek("error") === true;
      if (field("partType").peek("partType") === "error") field("partType").take("partType");
      field("error").boolean("error");
      const content = readChatContent(reader, message, extra, failed ? TEXT_CONTENT : ASSISTANT_CONTENT);
      keepOtherParts(extra, content.otherParts);
      if (failed) return [{ type: "error", text: content.text, ...common() }];
      const key = message.has("tool_calls") || !message.has("toolCalls") ? "tool_calls" : "toolCalls";
      const toolCalls = [...readChatToolCalls(reader, message, extra, key), ...content.toolCalls];
      return [{ type: "assistant", text: content.text, toolCalls, ...common() }];
    }
    case "tool": {
      // "" is kept: it answers a call stored without an id, which repair-orphans pairs by position.
      const answersById = message.has("tool_call_id");
      const callId = message.string("tool_call_id");
      if (field("partType").peek("partType") === "tool_result") field("partType").take("partType");
      // Both flags are read (no short-circuit) so that each is checked and neither lands in extra.
      const isErrorFlag = field("is_error").boolean("is_error");
      const errorFlag = field("error").boolean("error");
      const flagged = isErrorFlag === true || errorFlag === true;
      const optional = withoutUndefined({ toolName: field("toolName").string("toolName"), durationMs: field("duration").number("duration", { nonNegative: true }) });
      const content = readChatContent(reader, message, extra, answersById ? TEXT_CONTENT : TOOL_RESULT_CONTENT);
      keepOtherParts(extra, content.otherParts);
      if (answersById) return callId === undefined ? [] : [{ type: "tool-result", callId, output: content.text, isError: flagged, ...optional, ...common() }];
      const [only, ...more] = content.toolResults;
      if (only === undefined) {
        message.issue("tool_call_id", "a tool message needs the tool_call_id of the call it answers");
        return [];
      }
      if (more.length === 0) {
        const output = [only.output, content.text].filter((text) => text !== "").join("\n");
        return [{ type: "tool-result", callId: only.callId, output, isError: flagged || only.isError, ...optional, ...common() }];
      }
      // One result per part; text beside them belongs to none, so it is kept aside.
      if (content.text !== "") extra.keep("text", content.text);
      const shared = common();
      return content.toolResults.map((result) => ({
        type: "tool-result" as const,
        callId: result.callId,
        output: result.output,
        isError: flagged || result.isError,
        ...optional,
        ...shared,
        id: `${id}.${result.position}`,
      }));
    }
  }
}

/** How a run ended (run mode's output records), by the stored partType. */
const TASK_PART_TYPES: Readonly<Record<string, "task-completed" | "task-abandoned" | "task-terminated">> = Object.assign(Object.create(null), {
  task_completed: "task-completed",
  task_abandoned: "task-abandoned",
  task_terminated: "task-terminated",
});

/**
 * A run's ending record: the body (`{"result": …}`, `{"partialResult": …}` or text) is the item's text;
 * an abandoned run's `reason` and a terminated run's `terminatedBy` are the item's fields.
 */
function readTaskEnding(
  reader: RecordReader,
  message: RecordFields,
  extra: ExtraFields,
  type: "task-completed" | "task-abandoned" | "task-terminated",
  field: (key: string) => RecordFields,
  common: () => object,
): ItemInput[] {
  const partType = field("partType").take("partType");
  const reason = type === "task-abandoned" ? field("reason").string("reason") : undefined;
  const terminatedBy = type === "task-terminated" ? field("terminatedBy").string("terminatedBy") : undefined;
  // An ending answers no call: calls on it would leave their results without a call to follow.
  const calls = message.peek("tool_calls");
  if (Array.isArray(calls) && calls.length > 0) message.issue("tool_calls", `a ${String(partType)} record carries no tool calls`);
  const content = readChatContent(reader, message, extra, TEXT_CONTENT);
  keepOtherParts(extra, content.otherParts);
  return [{ type, ...withoutUndefined({ reason, terminatedBy }), text: content.text, ...common() } as ItemInput];
}

/** The ids a summary replaces: the inclusive range `summary: { fromId, toId }` and/or a list. */
function readCoveredIds(reader: RecordReader, message: RecordFields, extra: ExtraFields): { fromId?: string; toId?: string; coveredIds?: string[] } {
  const covered: { fromId?: string; toId?: string; coveredIds?: string[] } = {};
  const range = message.object("summary", extra);
  if (range !== undefined) {
    const fromId = range.id("fromId", { required: "a summary range needs fromId and toId" });
    const toId = range.id("toId", { required: "a summary range needs fromId and toId" });
    if (fromId !== undefined && toId !== undefined) {
      covered.fromId = fromId;
      covered.toId = toId;
    }
  }
  const listKey = message.has("coveredIds") || !message.has("messageIds") ? "coveredIds" : "messageIds";
  const list = message.array(listKey);
  if (list !== undefined) {
    const ids: string[] = [];
    list.forEach((entry: unknown, position) => {
      if (typeof entry === "string" && entry.length > 0) ids.push(entry);
      else if (typeof entry === "number" && Number.isFinite(entry)) ids.push(String(entry));
      else reader.issue([...message.at(listKey), position], `expected an id (a non-empty string or a number), got ${describeValue(entry)}`);
    });
    covered.coveredIds = ids;
  }
  if (range === undefined && list === undefined && !message.has("summary")) {
    message.issue("summary", "a summary message needs summary: { fromId, toId } or a coveredIds (or messageIds) list");
  }
  return covered;
}
