// Imports Anthropic Messages API params (text, image, tool_use and tool_result content blocks) into
// canonical items, splitting a user message's tool_result blocks into tool-result items.
import { z } from "zod";
import type { Attachment } from "../model/attachment.js";
import type { Item, ItemInput } from "../model/item.js";
import type { ToolCallInput } from "../model/tool-call.js";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import { parseItem } from "../model/parse-items.js";
import { parsePluginOptions } from "../plugins/parse-plugin-options.js";
import { describeValue } from "./describe-value.js";
import { ExtraFields } from "./extra-fields.js";
import { isPlainObject } from "./is-plain-object.js";
import { keepOtherParts } from "./keep-other-parts.js";
import { metadataWithExtra } from "./metadata-with-extra.js";
import type { FieldPath, RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";
import { runImport } from "./run-import.js";
import { withoutUndefined } from "./without-undefined.js";

const SOURCE = "Anthropic message";

const optionsSchema = z.object({
  /** The request's `system`: a string or text blocks, imported as a leading system item. */
  system: z.union([z.string(), z.array(z.looseObject({ type: z.literal("text"), text: z.string() }))]).optional(),
  /** Prefix of the generated item ids. Default "msg-". */
  idPrefix: z.string().default("msg-"),
});

export type ImportAnthropicMessagesOptions = z.input<typeof optionsSchema>;

type Reasoning = { text: string; signature?: string; redacted?: boolean };

interface ToolResultDraft {
  readonly id: string;
  readonly callId: string;
  readonly output: string;
  readonly isError: boolean;
  readonly toolName: string | undefined;
  readonly extra: ExtraFields;
}

/**
 * Converts Anthropic messages (and the optional system prompt) to items. Throws InvalidInputError
 * naming the index and field of every problem; fields it does not know are kept in `metadata.extra`.
 *
 * Anthropic answers tool calls inside user messages, while the item model keeps one item per tool
 * result, so a user message becomes one tool-result per tool_result block, in order, then one user
 * item for its text and images if it has any. An assistant message is always one item: text blocks
 * joined with "\n", tool_use blocks as tool calls, thinking and redacted_thinking as reasoning.
 * Blocks with no place in an item (server tools, plain-text documents, …) go to metadata.extra.parts.
 *
 * Ids are numbered by position: `${idPrefix}${index}` for a message's main item,
 * `${idPrefix}${index}.${blockIndex}` for its tool results, `${idPrefix}system` for the system option.
 */
export function importAnthropicMessages(messages: unknown, options: ImportAnthropicMessagesOptions = {}): Item[] {
  const { system, idPrefix } = parsePluginOptions("importAnthropicMessages", optionsSchema, options);
  // tool_result blocks do not repeat the tool name: it is found through the tool_use they answer.
  const toolNames = new Map<string, string>();

  const items = runImport(SOURCE, messages, (record: Record<string, unknown>, reader: RecordReader): ItemInput[] => {
    const extra = new ExtraFields();
    const message = reader.open(record, [], extra);
    const id = `${idPrefix}${reader.index}`;
    const role = message.oneOf("role", ["user", "assistant"] as const, { required: "an Anthropic message needs a role" });
    const blocks = readBlocks(reader, message);
    if (role === "assistant") return [readAssistant(reader, id, blocks, extra, toolNames)];
    if (role === "user") return readUser(reader, id, blocks, extra, toolNames);
    return [];
  });
  if (system === undefined) return items;
  const head = parseItem(systemItem(system, idPrefix), 0);
  // Unreachable: the options schema already checked what the system item is made of.
  if (Array.isArray(head)) throw new PluginOptionsError("importAnthropicMessages", head.map((issue) => `system: ${issue.message}`).join("\n"));
  return [head, ...items];
}

/** The content as a list of blocks with their paths; a string is one text block. */
function readBlocks(reader: RecordReader, message: RecordFields): Array<{ block: Record<string, unknown>; path: FieldPath; position: number }> {
  const content = message.take("content");
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return [{ block: { type: "text", text: content }, path: ["content"], position: 0 }];
  if (!Array.isArray(content)) {
    message.issue("content", `expected a string or an array of content blocks, got ${describeValue(content)}`);
    return [];
  }
  const blocks: Array<{ block: Record<string, unknown>; path: FieldPath; position: number }> = [];
  content.forEach((block: unknown, position) => {
    const path = ["content", position];
    if (!isPlainObject(block)) reader.issue(path, `expected a content block object, got ${describeValue(block)}`);
    else if (typeof block.type !== "string") reader.issue([...path, "type"], `expected the block type (a string), got ${describeValue(block.type)}`);
    else blocks.push({ block, path, position });
  });
  return blocks;
}

function readAssistant(
  reader: RecordReader,
  id: string,
  blocks: ReturnType<typeof readBlocks>,
  extra: ExtraFields,
  toolNames: Map<string, string>,
): ItemInput {
  const texts: string[] = [];
  const toolCalls: ToolCallInput[] = [];
  const reasoning: Reasoning[] = [];
  const otherParts: unknown[] = [];
  for (const { block, path } of blocks) {
    const type = block.type;
    if (type !== "text" && type !== "tool_use" && type !== "thinking" && type !== "redacted_thinking") {
      // Server tool blocks, images and the like have no place on an assistant item.
      otherParts.push(block);
      continue;
    }
    const fields = reader.open(block, path, extra);
    fields.take("type");
    if (type === "text") {
      const text = fields.string("text", { required: "a text block needs its text" });
      if (text !== undefined) texts.push(text);
    } else if (type === "tool_use") {
      // "" is kept (some compatible servers give none); repair-orphans pairs such calls by position.
      const callId = fields.string("id", { required: "a tool_use block needs its id" });
      const name = fields.string("name", { required: "a tool_use block needs the tool name", nonEmpty: true });
      const args = fields.json("input", "{}");
      if (callId !== undefined && name !== undefined) {
        toolCalls.push({ id: callId, name, arguments: args });
        if (callId !== "") toolNames.set(callId, name);
      }
    } else if (type === "thinking") {
      const text = fields.string("thinking", { required: "a thinking block needs its thinking text" });
      const signature = fields.string("signature");
      if (text !== undefined) reasoning.push({ text, ...withoutUndefined({ signature }) });
    } else {
      const data = fields.string("data", { required: "a redacted_thinking block needs its data" });
      if (data !== undefined) reasoning.push({ text: data, redacted: true });
    }
  }
  keepOtherParts(extra, otherParts);
  return {
    id,
    type: "assistant",
    text: texts.join("\n"),
    toolCalls,
    ...(reasoning.length > 0 ? { reasoning } : {}),
    metadata: metadataWithExtra({}, extra),
  };
}

function readUser(reader: RecordReader, id: string, blocks: ReturnType<typeof readBlocks>, extra: ExtraFields, toolNames: Map<string, string>): ItemInput[] {
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  const otherParts: unknown[] = [];
  const results: ToolResultDraft[] = [];
  for (const { block, path, position } of blocks) {
    if (block.type === "tool_result") {
      const resultExtra = new ExtraFields();
      const fields = reader.open(block, path, resultExtra);
      fields.take("type");
      const callId = fields.string("tool_use_id", { required: "a tool_result block needs the tool_use_id it answers" });
      const isError = fields.boolean("is_error") === true;
      const output = readResultContent(reader, fields, resultExtra);
      if (callId !== undefined) results.push({ id: `${id}.${position}`, callId, output, isError, toolName: callId === "" ? undefined : toolNames.get(callId), extra: resultExtra });
    } else if (block.type === "text") {
      const fields = reader.open(block, path, extra);
      fields.take("type");
      const text = fields.string("text", { required: "a text block needs its text" });
      if (text !== undefined) texts.push(text);
    } else if (block.type === "image" || block.type === "document") {
      const attachment = readAttachment(reader, block, path, extra);
      if (attachment === "unsupported") otherParts.push(block);
      else if (attachment !== "invalid") attachments.push(attachment);
    } else {
      otherParts.push(block);
    }
  }

  const hasUserItem = texts.length > 0 || attachments.length > 0 || results.length === 0;
  // Message-level leftovers go on the user item, or on the first tool result when there is none.
  const firstResult = results[0];
  if (!hasUserItem && firstResult !== undefined) extra.absorb(firstResult.extra);
  keepOtherParts(extra, otherParts);
  const items: ItemInput[] = results.map((result, index) => ({
    id: result.id,
    type: "tool-result",
    callId: result.callId,
    output: result.output,
    isError: result.isError,
    ...withoutUndefined({ toolName: result.toolName }),
    metadata: metadataWithExtra({}, !hasUserItem && index === 0 ? extra : result.extra),
  }));
  if (hasUserItem) {
    items.push({ id, type: "user", text: texts.join("\n"), ...(attachments.length > 0 ? { attachments } : {}), metadata: metadataWithExtra({}, extra) });
  }
  return items;
}

/** A tool_result's content: a string, or blocks whose text is joined; other blocks are kept aside. */
function readResultContent(reader: RecordReader, fields: RecordFields, extra: ExtraFields): string {
  const content = fields.take("content");
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) {
    fields.issue("content", `expected a string or an array of content blocks, got ${describeValue(content)}`);
    return "";
  }
  const texts: string[] = [];
  const otherParts: unknown[] = [];
  content.forEach((block: unknown, position) => {
    const path = fields.at("content").concat(position);
    if (isPlainObject(block) && block.type === "text") {
      const view = reader.open(block, path, extra);
      view.take("type");
      const text = view.string("text", { required: "a text block needs its text" });
      if (text !== undefined) texts.push(text);
    } else if (isPlainObject(block)) otherParts.push(block);
    else reader.issue(path, `expected a content block object, got ${describeValue(block)}`);
  });
  keepOtherParts(extra, otherParts);
  return texts.join("\n");
}

/**
 * An image or document block as an attachment. Base64 images become data: URLs; documents become
 * file attachments (title as filename). Sources the attachment model cannot hold (plain-text or
 * URL documents, file ids of images) are "unsupported" and kept verbatim in metadata.extra.parts.
 */
function readAttachment(reader: RecordReader, block: Record<string, unknown>, path: FieldPath, extra: ExtraFields): Attachment | "unsupported" | "invalid" {
  const source = block.source;
  if (!isPlainObject(source)) {
    reader.issue([...path, "source"], `expected the ${String(block.type)} source object, got ${describeValue(source)}`);
    return "invalid";
  }
  const kind = source.type;
  const supported = block.type === "image" ? kind === "base64" || kind === "url" : kind === "base64" || kind === "file";
  if (!supported) return "unsupported";
  const fields = reader.open(block, path, extra);
  fields.take("type");
  const from = fields.object("source", extra);
  if (from === undefined) return "invalid";
  from.take("type");
  if (block.type === "image" && kind === "url") {
    const url = from.string("url", { required: "a url image source needs its url", nonEmpty: true });
    return url === undefined ? "invalid" : { type: "image", url };
  }
  if (kind === "file") {
    const fileId = from.string("file_id", { required: "a file document source needs its file_id", nonEmpty: true });
    const filename = fields.string("title");
    return fileId === undefined ? "invalid" : { type: "file", fileId, ...withoutUndefined({ filename }) };
  }
  const mediaType = from.string("media_type", { required: "a base64 source needs its media_type", nonEmpty: true });
  const data = from.string("data", { required: "a base64 source needs its data", nonEmpty: true });
  if (mediaType === undefined || data === undefined) return "invalid";
  if (block.type === "image") return { type: "image", url: `data:${mediaType};base64,${data}` };
  const filename = fields.string("title");
  return { type: "file", data, mediaType, ...withoutUndefined({ filename }) };
}

/** The system option as an item; fields of its blocks other than type and text go to metadata.extra. */
function systemItem(system: string | ReadonlyArray<{ type: "text"; text: string } & Record<string, unknown>>, idPrefix: string): ItemInput {
  const id = `${idPrefix}system`;
  if (typeof system === "string") return { id, type: "system", text: system };
  const extra: Record<string, unknown> = {};
  system.forEach((block, position) => {
    for (const [key, value] of Object.entries(block)) if (key !== "type" && key !== "text") extra[`system[${position}].${key}`] = value;
  });
  const text = system.map((block) => block.text).join("\n");
  return Object.keys(extra).length === 0 ? { id, type: "system", text } : { id, type: "system", text, metadata: { extra } };
}
