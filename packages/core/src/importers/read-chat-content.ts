// Reads a Chat Completions style `content` (a string, null or an array of parts) for the stored-message
// and OpenAI importers: text parts joined with "\n", attachments, and the parts with no place in an item.
import { formatFieldPath } from "../errors/invalid-input-error.js";
import type { Attachment } from "../model/attachment.js";
import type { ToolCallInput } from "../model/tool-call.js";
import { describeValue } from "./describe-value.js";
import type { ExtraFields } from "./extra-fields.js";
import { isPlainObject } from "./is-plain-object.js";
import type { RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";
import { withoutUndefined } from "./without-undefined.js";

export interface ChatContentOptions {
  /** `image_url` parts become image attachments. */
  readonly images: boolean;
  /** `file` parts become file attachments. */
  readonly files: boolean;
  /** `refusal` parts are collected (assistant messages). */
  readonly refusals: boolean;
  /** Anthropic-style `tool_use` parts `{ type, id, name, input }` become calls (the message builder's assistant messages). */
  readonly toolUses?: boolean;
  /**
   * Anthropic-style tool results become results: `tool_result` parts (or parts with a `tool_use_id`
   * and no type), or a content object `{ tool_use_id, content }` (the message builder's tool messages).
   */
  readonly toolResults?: boolean;
}

/** A tool result found in the content; `position` is its part's index, undefined for a content object. */
export interface ContentToolResult {
  readonly callId: string;
  readonly output: string;
  readonly isError: boolean;
  readonly position: number | undefined;
}

export interface ChatContent {
  readonly text: string;
  readonly attachments: Attachment[];
  /** Text of the refusal parts, when there are any. */
  readonly refusal: string | undefined;
  /** Parts that have no place in the item, verbatim and in order. */
  readonly otherParts: unknown[];
  /** With `toolUses`: the calls of the `tool_use` parts, in order. */
  readonly toolCalls: ToolCallInput[];
  /** With `toolResults`: the tool results found, in order. */
  readonly toolResults: ContentToolResult[];
}

const DETAILS = ["auto", "low", "high"] as const;

export function readChatContent(reader: RecordReader, fields: RecordFields, extra: ExtraFields, options: ChatContentOptions): ChatContent {
  const value = fields.take("content");
  const texts: string[] = [];
  const refusals: string[] = [];
  const attachments: Attachment[] = [];
  const otherParts: unknown[] = [];
  const toolCalls: ToolCallInput[] = [];
  const toolResults: ContentToolResult[] = [];
  const isToolResult = (part: Record<string, unknown>) => options.toolResults === true && (part.type === "tool_result" || (part.type === undefined && Object.hasOwn(part, "tool_use_id")));
  if (typeof value === "string") texts.push(value);
  else if (isPlainObject(value) && isToolResult(value)) {
    const result = readToolResult(reader, reader.open(value, fields.at("content"), extra), extra, undefined);
    if (result !== undefined) toolResults.push(result);
  } else if (Array.isArray(value)) {
    value.forEach((part: unknown, position) => {
      const path = fields.at("content").concat(position);
      if (!isPlainObject(part)) {
        reader.issue(path, `expected a content part object, got ${describeValue(part)}`);
        return;
      }
      const type = part.type;
      if (isToolResult(part)) {
        const result = readToolResult(reader, reader.open(part, path, extra), extra, position);
        if (result !== undefined) toolResults.push(result);
      } else if (type === "tool_use" && options.toolUses === true) {
        const view = reader.open(part, path, extra);
        view.take("type");
        // "" is kept, as for tool_calls: repair-orphans pairs calls without an id by position.
        const id = view.string("id", { required: "a tool_use part needs its id" });
        const name = view.string("name", { required: "a tool_use part needs the tool name", nonEmpty: true });
        const args = view.json("input", "{}");
        if (id !== undefined && name !== undefined) toolCalls.push({ id, name, arguments: args });
      } else if (type === "text" || (type === "refusal" && options.refusals)) {
        const view = reader.open(part, path, extra);
        view.take("type");
        const text = view.string(type, { required: `a ${type} part needs the field "${type}"` });
        if (text !== undefined) (type === "text" ? texts : refusals).push(text);
      } else if (type === "image_url" && options.images) {
        const image = readImagePart(reader.open(part, path, extra), extra);
        if (image !== undefined) attachments.push(image);
      } else if (type === "file" && options.files) {
        const file = readFilePart(reader.open(part, path, extra), extra);
        if (file !== undefined) attachments.push(file);
      } else if (typeof type !== "string") {
        reader.issue([...path, "type"], `expected the part type (a string), got ${describeValue(type)}`);
      } else {
        otherParts.push(part);
      }
    });
  } else if (value !== undefined && value !== null) {
    fields.issue("content", `expected a string, null or an array of content parts, got ${describeValue(value)}`);
  }
  return { text: texts.join("\n"), attachments, refusal: refusals.length === 0 ? undefined : refusals.join("\n"), otherParts, toolCalls, toolResults };
}

/** `{ type?: "tool_result", tool_use_id, content?, is_error? }`: content is text or text parts; other parts stay in extra. */
function readToolResult(reader: RecordReader, part: RecordFields, extra: ExtraFields, position: number | undefined): ContentToolResult | undefined {
  part.take("type");
  const callId = part.string("tool_use_id", { required: "a tool result part needs the tool_use_id it answers" });
  const isError = part.boolean("is_error") === true;
  const content = part.peek("content");
  let output = "";
  if (typeof content === "string" || content === undefined || content === null) output = part.string("content") ?? "";
  else if (Array.isArray(content)) {
    const texts: string[] = [];
    const others: unknown[] = [];
    part.take("content");
    content.forEach((block: unknown, index) => {
      if (isPlainObject(block) && block.type === "text") {
        const view = reader.open(block, part.at("content").concat(index), extra);
        view.take("type");
        const text = view.string("text", { required: 'a text part needs the field "text"' });
        if (text !== undefined) texts.push(text);
      } else others.push(block);
    });
    output = texts.join("\n");
    // Images and the like in a result have no place in a tool-result item: kept, under their path.
    if (others.length > 0) extra.keep(formatFieldPath(part.at("content")), others);
  } else part.issue("content", `expected a string or an array of text parts, got ${describeValue(content)}`);
  return callId === undefined ? undefined : { callId, output, isError, position };
}

function readImagePart(part: RecordFields, extra: ExtraFields): Attachment | undefined {
  part.take("type");
  // Some stores flattened `image_url` to the URL string.
  if (typeof part.peek("image_url") === "string") {
    const url = part.string("image_url", { nonEmpty: true });
    return url === undefined ? undefined : { type: "image", url };
  }
  const image = part.object("image_url", extra, { required: "an image_url part needs image_url: { url }" });
  if (image === undefined) return undefined;
  const url = image.string("url", { required: "an image needs its URL", nonEmpty: true });
  const detail = image.oneOf("detail", DETAILS);
  if (url === undefined) return undefined;
  return detail === undefined ? { type: "image", url } : { type: "image", url, detail };
}

function readFilePart(part: RecordFields, extra: ExtraFields): Attachment | undefined {
  part.take("type");
  const file = part.object("file", extra, { required: "a file part needs file: { file_data or file_id }" });
  if (file === undefined) return undefined;
  const data = file.string("file_data", { nonEmpty: true });
  const fileId = file.string("file_id", { nonEmpty: true });
  const filename = file.string("filename");
  if (data === undefined && fileId === undefined) {
    if (!file.has("file_data") && !file.has("file_id")) part.issue("file", "a file part needs file_data or file_id");
    return undefined;
  }
  return { type: "file", ...withoutUndefined({ data, fileId, filename }) };
}
