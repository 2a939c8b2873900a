// Reads the content of a stored Responses message (a string or a list of parts) and the output of a
// function_call_output: text joined with "\n", attachments, and the parts an item has no place for.
import type { Attachment } from "../model/attachment.js";
import { openAIResponsesOutputText, openAIResponsesPartAttachment } from "../model/openai-responses-content.js";
import { describeValue } from "./describe-value.js";
import type { ExtraFields } from "./extra-fields.js";
import { isPlainObject } from "./is-plain-object.js";
import type { FieldPath, RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";
import { withoutUndefined } from "./without-undefined.js";

export interface ResponsesContent {
  readonly text: string;
  readonly attachments: Attachment[];
  /** Text of the refusal parts (assistant messages), when there are any. */
  readonly refusal: string | undefined;
  /** Parts that have no place in the item, verbatim and in order. */
  readonly otherParts: unknown[];
  /** The stored content when it is a list of parts, as it was. */
  readonly list: ReadonlyArray<unknown> | undefined;
}

/**
 * Which parts become what: a user message's images and files are attachments, a system or developer
 * message has no place for them (they are kept as stored), an assistant message has output parts.
 */
export type ResponsesContentRole = "user" | "system" | "assistant";

const DETAILS = ["auto", "low", "high"] as const;

export function readResponsesContent(reader: RecordReader, message: RecordFields, extra: ExtraFields, role: ResponsesContentRole): ResponsesContent {
  const value = message.take("content");
  const texts: string[] = [];
  const refusals: string[] = [];
  const attachments: Attachment[] = [];
  const otherParts: unknown[] = [];
  if (typeof value === "string") texts.push(value);
  else if (Array.isArray(value)) {
    value.forEach((part: unknown, position) => {
      const path = message.at("content").concat(position);
      const type = checkedPartType(reader, part, path);
      if (type === undefined || !isPlainObject(part)) return;
      // Assistant messages sent back as input may use input_text parts; output_text is what the API returns.
      const isText = type === "input_text" || (role === "assistant" && type === "output_text");
      if (isText || (role === "assistant" && type === "refusal")) {
        const view = reader.open(part, path, extra);
        view.take("type");
        const key = type === "refusal" ? "refusal" : "text";
        const text = view.string(key, { required: `${type === "input_text" || type === "output_text" ? "an" : "a"} ${type} part needs the field "${key}"` });
        // Empty annotation and logprob lists are what every output_text carries: nothing to keep.
        for (const list of ["annotations", "logprobs"]) if (isEmptyList(view.peek(list))) view.take(list);
        if (text !== undefined) (type === "refusal" ? refusals : texts).push(text);
      } else if (role === "user" && type === "input_image") {
        const image = readImagePart(reader, part, path, extra);
        if (image === "other") otherParts.push(part);
        else if (image !== undefined) attachments.push(image);
      } else if (role === "user" && type === "input_file") {
        const file = readFilePart(reader, part, path, extra);
        if (file === "other") otherParts.push(part);
        else if (file !== undefined) attachments.push(file);
      } else {
        otherParts.push(part);
      }
    });
  } else if (value !== undefined && value !== null) {
    message.issue("content", `expected a string or an array of content parts, got ${describeValue(value)}`);
  }
  return { text: texts.join("\n"), attachments, refusal: refusals.length === 0 ? undefined : refusals.join("\n"), otherParts, list: Array.isArray(value) ? value : undefined };
}

/**
 * A function_call_output's `output`: a string, or a list of parts (its text is openAIResponsesOutputText:
 * the input_text parts and a marker for each image or file, one per line; the list itself is kept by the
 * caller). Undefined when it is missing or wrong.
 */
export function readResponsesOutput(reader: RecordReader, output: RecordFields): { readonly text: string; readonly parts: ReadonlyArray<unknown> | undefined } | undefined {
  const value = output.take("output");
  if (typeof value === "string") return { text: value, parts: undefined };
  if (value === undefined || value === null) {
    output.issue("output", "a function_call_output needs its output (a string or a list of content parts)");
    return undefined;
  }
  if (!Array.isArray(value)) {
    output.issue("output", `expected a string or an array of content parts, got ${describeValue(value)}`);
    return undefined;
  }
  let valid = true;
  value.forEach((part: unknown, position) => {
    const path = output.at("output").concat(position);
    const type = checkedPartType(reader, part, path);
    if (type === undefined || !isPlainObject(part)) {
      valid = false;
      return;
    }
    if (type !== "input_text" || typeof part.text === "string") return;
    reader.issue([...path, "text"], `an input_text part needs the field "text" (a string), got ${describeValue(part.text)}`);
    valid = false;
  });
  return valid ? { text: openAIResponsesOutputText(value), parts: value } : undefined;
}

function checkedPartType(reader: RecordReader, part: unknown, path: FieldPath): string | undefined {
  if (!isPlainObject(part)) {
    reader.issue(path, `expected a content part object, got ${describeValue(part)}`);
    return undefined;
  }
  if (typeof part.type !== "string") {
    reader.issue([...path, "type"], `expected the part type (a string), got ${describeValue(part.type)}`);
    return undefined;
  }
  return part.type;
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

/** An image by URL (https: or data:) is an attachment; one by file id (beside a URL too), or of a detail the model has no value for, is kept as it is. */
function readImagePart(reader: RecordReader, part: Record<string, unknown>, path: FieldPath, extra: ExtraFields): Attachment | "other" | undefined {
  // The same test as the renderer's, which sends the stored list back while the attachments are these.
  if (openAIResponsesPartAttachment(part) === undefined) return "other";
  const url = part.image_url as string;
  const view = reader.open(part, path, extra);
  view.take("type");
  view.take("image_url");
  const known = view.oneOf("detail", DETAILS);
  // A null file_id beside the URL is how the API writes "no file".
  if (view.peek("file_id") === null) view.take("file_id");
  return known === undefined ? { type: "image", url } : { type: "image", url, detail: known };
}

/** A file by data or file id is an attachment; one by URL only is kept as it is. */
function readFilePart(reader: RecordReader, part: Record<string, unknown>, path: FieldPath, extra: ExtraFields): Attachment | "other" | undefined {
  if (openAIResponsesPartAttachment(part) === undefined) return "other";
  const hasData = typeof part.file_data === "string" && part.file_data.length > 0;
  const view = reader.open(part, path, extra);
  view.take("type");
  const filename = view.string("filename");
  if (hasData) {
    const data = view.string("file_data");
    // A null file_id is how the API writes "no file"; a file id beside the data is kept with it.
    if (view.peek("file_id") === null) view.take("file_id");
    const fileId = view.string("file_id");
    return data === undefined ? undefined : { type: "file", data, ...withoutUndefined({ fileId, filename }) };
  }
  const fileId = view.string("file_id");
  return fileId === undefined ? undefined : { type: "file", fileId, ...withoutUndefined({ filename }) };
}
