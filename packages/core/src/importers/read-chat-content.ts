// Reads a Chat Completions style `content` (a string, null or an array of parts) for the stored-message
// and OpenAI importers: text parts joined with "\n", attachments, and the parts with no place in an item.
import type { Attachment } from "../model/attachment.js";
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
}

export interface ChatContent {
  readonly text: string;
  readonly attachments: Attachment[];
  /** Text of the refusal parts, when there are any. */
  readonly refusal: string | undefined;
  /** Parts that have no place in the item, verbatim and in order. */
  readonly otherParts: unknown[];
}

const DETAILS = ["auto", "low", "high"] as const;

export function readChatContent(reader: RecordReader, fields: RecordFields, extra: ExtraFields, options: ChatContentOptions): ChatContent {
  const value = fields.take("content");
  const texts: string[] = [];
  const refusals: string[] = [];
  const attachments: Attachment[] = [];
  const otherParts: unknown[] = [];
  if (typeof value === "string") texts.push(value);
  else if (Array.isArray(value)) {
    value.forEach((part: unknown, position) => {
      const path = fields.at("content").concat(position);
      if (!isPlainObject(part)) {
        reader.issue(path, `expected a content part object, got ${describeValue(part)}`);
        return;
      }
      const type = part.type;
      if (type === "text" || (type === "refusal" && options.refusals)) {
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
  return { text: texts.join("\n"), attachments, refusal: refusals.length === 0 ? undefined : refusals.join("\n"), otherParts };
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
