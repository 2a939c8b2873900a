// The text an item holds for stored Responses content, as the importer of stored Responses items (and a
// loop's Responses adapter) computes it. The "openai-responses" renderer computes the same text from
// what it kept in metadata.extra.openaiResponses: while the item still holds that text, nothing changed
// it, and the stored content goes back as the API gave it.
import type { Attachment } from "./attachment.js";

type Part = { readonly [field: string]: unknown };

const isPart = (value: unknown): value is Part => typeof value === "object" && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/** The detail values the item model holds for an image. */
const IMAGE_DETAILS: ReadonlyArray<unknown> = ["auto", "low", "high"];

/**
 * The text of a `function_call_output` given as a list of parts: its input_text parts, and a marker for
 * each other part (`[image]`, `[file: report.pdf]`, `[file]`, `[input_audio]`), one per line. A tool
 * that returned only a screenshot then has an output that says so, in every format, rather than none.
 */
export function openAIResponsesOutputText(parts: ReadonlyArray<unknown>): string {
  return parts
    .map((part) => {
      if (!isPart(part)) return "";
      if (part.type === "input_text") return typeof part.text === "string" ? part.text : "";
      if (part.type === "input_image") return "[image]";
      if (part.type === "input_file") return nonEmptyString(part.filename) ? `[file: ${part.filename}]` : "[file]";
      return typeof part.type === "string" ? `[${part.type}]` : "";
    })
    .join("\n");
}

/** What one stored assistant message says: its text parts (one per line), and its refusal parts' words. */
export interface OpenAIResponsesMessageWords {
  readonly text: string;
  readonly refusal: string | undefined;
}

/** The words of a stored message's `content` (a string, or output_text / input_text / refusal parts). */
export function openAIResponsesMessageWords(content: unknown): OpenAIResponsesMessageWords {
  if (typeof content === "string") return { text: content, refusal: undefined };
  if (!Array.isArray(content)) return { text: "", refusal: undefined };
  const texts: string[] = [];
  const refusals: string[] = [];
  for (const part of content as unknown[]) {
    if (!isPart(part)) continue;
    if ((part.type === "output_text" || part.type === "input_text") && typeof part.text === "string") texts.push(part.text);
    else if (part.type === "refusal" && typeof part.refusal === "string") refusals.push(part.refusal);
  }
  return { text: texts.join("\n"), refusal: refusals.length === 0 ? undefined : refusals.join("\n") };
}

/**
 * The text of an assistant turn made of these messages: their texts, one per line (empty ones left
 * out); a turn with no text says its refusals, as a Chat Completions refusal is the text of a message
 * that has no other.
 */
export function openAIResponsesTurnText(messages: ReadonlyArray<OpenAIResponsesMessageWords>): string {
  const text = messages
    .map((message) => message.text)
    .filter((part) => part.length > 0)
    .join("\n");
  if (text.length > 0) return text;
  return messages.flatMap((message) => (message.refusal === undefined ? [] : [message.refusal])).join("\n");
}

/**
 * The attachment a user message's content part is, when the item model holds it: an image by URL
 * (https: or data:) with a detail it knows, a file by data, by file id or both. Undefined for any other
 * part (an image by file id, or by URL beside a file id, which an image attachment has no place for; a
 * detail of "original", a file by URL, a part of another type).
 */
export function openAIResponsesPartAttachment(part: unknown): Attachment | undefined {
  if (!isPart(part)) return undefined;
  if (part.type === "input_image") {
    const { image_url: url, detail } = part;
    if (!nonEmptyString(url) || nonEmptyString(part.file_id) || (detail !== undefined && detail !== null && !IMAGE_DETAILS.includes(detail))) return undefined;
    return detail === undefined || detail === null ? { type: "image", url } : { type: "image", url, detail: detail as "auto" | "low" | "high" };
  }
  if (part.type !== "input_file") return undefined;
  const filename = typeof part.filename === "string" ? { filename: part.filename } : {};
  // A file id stored beside the data goes back with it: nothing is chosen away.
  if (nonEmptyString(part.file_data)) return { type: "file", data: part.file_data, ...(nonEmptyString(part.file_id) ? { fileId: part.file_id } : {}), ...filename };
  if (nonEmptyString(part.file_id)) return { type: "file", fileId: part.file_id, ...filename };
  return undefined;
}
