// Imports stored ConversationMessage records (the stored message shape chat and run mode persist:
// OpenAI-like messages with `tool_calls`, an id, a date and run metadata) into canonical items, one
// item per message.
import type { Item, ItemInput } from "../model/item.js";
import { describeValue } from "./describe-value.js";
import { ExtraFields } from "./extra-fields.js";
import { keepOtherParts } from "./keep-other-parts.js";
import { metadataWithExtra } from "./metadata-with-extra.js";
import { type ChatContentOptions, readChatContent } from "./read-chat-content.js";
import { readChatToolCalls } from "./read-chat-tool-calls.js";
import type { RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";
import { runImport } from "./run-import.js";
import { withoutUndefined } from "./without-undefined.js";

const SOURCE = "stored message";
const ROLES = ["user", "assistant", "system", "tool"] as const;

// Chat and run mode only store images on user messages; any other part is kept in metadata.extra.parts.
const USER_CONTENT: ChatContentOptions = { images: true, files: false, refusals: false };
const TEXT_CONTENT: ChatContentOptions = { images: false, files: false, refusals: false };

/**
 * Converts stored conversation messages to items. Throws InvalidInputError naming the index, id and
 * field of every problem; fields it does not know are kept in `metadata.extra`.
 */
export function importStoredMessages(messages: unknown): Item[] {
  return runImport(SOURCE, messages, readStoredMessage);
}

function readStoredMessage(record: Record<string, unknown>, reader: RecordReader): ItemInput[] {
  const extra = new ExtraFields();
  const message = reader.open(record, [], extra);
  const id = message.id("id", { required: "a stored message needs an id" }) ?? "";
  const createdAt = message.date("createdAt");
  const known = {
    mode: message.string("mode"),
    runId: message.string("runId"),
    agentId: message.string("agentId"),
    priority: message.number("priority"),
    includeInContext: message.boolean("includeInContext"),
  };
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
    case "system": {
      const content = readChatContent(reader, message, extra, TEXT_CONTENT);
      keepOtherParts(extra, content.otherParts);
      return [{ type: "system", text: content.text, ...common() }];
    }
    case "assistant": {
      // Chat and run mode persist an LLM failure as an assistant message so the user can say "continue".
      const failed = message.peek("partType") === "error" || message.peek("error") === true;
      if (message.peek("partType") === "error") message.take("partType");
      message.boolean("error");
      const content = readChatContent(reader, message, extra, TEXT_CONTENT);
      keepOtherParts(extra, content.otherParts);
      if (failed) return [{ type: "error", text: content.text, ...common() }];
      const toolCalls = readChatToolCalls(reader, message, extra);
      return [{ type: "assistant", text: content.text, toolCalls, ...common() }];
    }
    case "tool": {
      const callId = message.string("tool_call_id", { required: "a tool message needs the tool_call_id of the call it answers", nonEmpty: true }) ?? "";
      if (message.peek("partType") === "tool_result") message.take("partType");
      // Both flags are read (no short-circuit) so that each is checked and neither lands in extra.
      const isErrorFlag = message.boolean("is_error");
      const errorFlag = message.boolean("error");
      const optional = withoutUndefined({ toolName: message.string("toolName"), durationMs: message.number("duration", { nonNegative: true }) });
      const content = readChatContent(reader, message, extra, TEXT_CONTENT);
      keepOtherParts(extra, content.otherParts);
      return [{ type: "tool-result", callId, output: content.text, isError: isErrorFlag === true || errorFlag === true, ...optional, ...common() }];
    }
  }
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
