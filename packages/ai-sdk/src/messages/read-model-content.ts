// Reads the content of an AI SDK ModelMessage into the fields of an item. Pure functions of the
// content: the importers use them to make items, and the renderer uses them again to tell whether an
// item still says what its imported content said (then that content is sent back as it was).
import type { Attachment } from "@ctxpipe/core";

export type FieldPath = ReadonlyArray<string | number>;

/** Collects the problems found in one message; a problem names its field path inside the message. */
export interface IssueSink {
  issue(path: FieldPath, message: string): void;
}

/** Swallows problems, for reading content that was read without problems before. */
export const IGNORE_ISSUES: IssueSink = { issue() {} };

export interface ReasoningFields {
  readonly text: string;
  readonly signature?: string;
  readonly redacted?: boolean;
}

export interface CallFields {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface AssistantFields {
  readonly text: string;
  readonly toolCalls: ReadonlyArray<CallFields>;
  readonly reasoning: ReadonlyArray<ReasoningFields>;
  /** Parts the item has no field for, verbatim, in order. */
  readonly parts: ReadonlyArray<unknown>;
}

export interface UserFields {
  readonly text: string;
  readonly attachments: ReadonlyArray<Attachment>;
  readonly parts: ReadonlyArray<unknown>;
}

export interface ToolResultFields {
  readonly callId: string;
  readonly toolName: string;
  readonly output: string;
  readonly isError: boolean;
}

/** The text a denied execution is sent as when it gives no reason. */
export const EXECUTION_DENIED_TEXT = "Tool execution denied.";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 40 ? "a string" : JSON.stringify(value);
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** JSON text of a value, or undefined (with an issue) when it has none: a cycle, a bigint. */
export function jsonText(value: unknown, path: FieldPath, issues: IssueSink): string | undefined {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    issues.issue(path, `expected a value that can be written as JSON (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

/** The parts of a content: a string is one text part; anything but an array is reported. */
function partsOf(content: unknown, path: FieldPath, issues: IssueSink): Array<{ part: Record<string, unknown>; path: FieldPath }> {
  if (typeof content === "string") return [{ part: { type: "text", text: content }, path }];
  if (!Array.isArray(content)) {
    issues.issue(path, `expected a string or an array of parts, got ${describeValue(content)}`);
    return [];
  }
  const parts: Array<{ part: Record<string, unknown>; path: FieldPath }> = [];
  for (let position = 0; position < content.length; position++) {
    const part: unknown = content[position];
    const at = [...path, position];
    if (!isRecord(part)) issues.issue(at, `expected a part object, got ${describeValue(part)}`);
    else if (typeof part.type !== "string") issues.issue([...at, "type"], `expected the part type (a string), got ${describeValue(part.type)}`);
    else parts.push({ part, path: at });
  }
  return parts;
}

function readText(part: Record<string, unknown>, path: FieldPath, issues: IssueSink): string | undefined {
  if (typeof part.text === "string") return part.text;
  issues.issue([...path, "text"], `a ${String(part.type)} part needs its text (a string), got ${describeValue(part.text)}`);
  return undefined;
}

/** Anthropic's signature and redacted data, which the AI SDK carries in the part's provider options. */
function readReasoning(part: Record<string, unknown>, text: string): ReasoningFields {
  const anthropic = isRecord(part.providerOptions) ? part.providerOptions.anthropic : undefined;
  if (isRecord(anthropic) && typeof anthropic.redactedData === "string" && anthropic.redactedData.length > 0 && text.length === 0) {
    return { text: anthropic.redactedData, redacted: true };
  }
  const signature = isRecord(anthropic) && typeof anthropic.signature === "string" ? anthropic.signature : undefined;
  return signature === undefined ? { text } : { text, signature };
}

export function readAssistantContent(content: unknown, path: FieldPath, issues: IssueSink): AssistantFields {
  const texts: string[] = [];
  const toolCalls: CallFields[] = [];
  const reasoning: ReasoningFields[] = [];
  const parts: unknown[] = [];
  for (const { part, path: at } of partsOf(content, path, issues)) {
    if (part.type === "text") {
      const text = readText(part, at, issues);
      if (text !== undefined) texts.push(text);
    } else if (part.type === "reasoning") {
      const text = readText(part, at, issues);
      if (text !== undefined) reasoning.push(readReasoning(part, text));
    } else if (part.type === "tool-call" && part.providerExecuted !== true) {
      const call = readCall(part, at, issues);
      if (call !== undefined) toolCalls.push(call);
    } else {
      // Calls the provider executed travel with their results inside the assistant message, which
      // ctxpipe's pairing of calls and results does not cover: they are kept and sent back as they are.
      parts.push(part);
    }
  }
  return { text: texts.join("\n"), toolCalls, reasoning, parts };
}

function readCall(part: Record<string, unknown>, path: FieldPath, issues: IssueSink): CallFields | undefined {
  const id = part.toolCallId;
  const name = part.toolName;
  if (typeof id !== "string") issues.issue([...path, "toolCallId"], `a tool-call part needs its toolCallId (a string), got ${describeValue(id)}`);
  if (typeof name !== "string" || name.length === 0) issues.issue([...path, "toolName"], `a tool-call part needs the tool name (a non-empty string), got ${describeValue(name)}`);
  // No input at all is an empty argument object, as the AI SDK's providers send it.
  const args = part.input === undefined ? "{}" : jsonText(part.input, [...path, "input"], issues);
  if (typeof id !== "string" || typeof name !== "string" || name.length === 0 || args === undefined) return undefined;
  return { id, name, arguments: args };
}

export function readUserContent(content: unknown, path: FieldPath, issues: IssueSink): UserFields {
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  const parts: unknown[] = [];
  for (const { part, path: at } of partsOf(content, path, issues)) {
    if (part.type === "text") {
      const text = readText(part, at, issues);
      if (text !== undefined) texts.push(text);
      continue;
    }
    const attachment = part.type === "image" || part.type === "file" ? attachmentOf(part) : undefined;
    if (attachment !== undefined) attachments.push(attachment);
    else parts.push(part);
  }
  return { text: texts.join("\n"), attachments, parts };
}

const URL_TEXT = /^(?:https?|data):/i;

/** The URL text of a value that is a URL (a URL object or a URL string), else undefined. */
function urlText(value: unknown): string | undefined {
  if (value instanceof URL) return value.href;
  return typeof value === "string" && URL_TEXT.test(value) ? value : undefined;
}

/**
 * An image or file part as an attachment, when the attachment model can hold it: an image by URL
 * (data: URLs included) or by base64 text with its media type, a file by base64 text. Bytes,
 * provider references and inline text documents are kept verbatim instead.
 */
function attachmentOf(part: Record<string, unknown>): Attachment | undefined {
  const mediaType = typeof part.mediaType === "string" && part.mediaType.length > 0 ? part.mediaType : undefined;
  let data: unknown = part.type === "image" ? part.image : part.data;
  if (isRecord(data) && data.type === "data") data = data.data;
  else if (isRecord(data) && data.type === "url") data = data.url;
  const isImage = part.type === "image" || mediaType?.startsWith("image") === true;
  const url = urlText(data);
  if (isImage) {
    if (url !== undefined) return { type: "image", url };
    if (typeof data === "string" && data.length > 0 && mediaType !== undefined && /^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) return { type: "image", url: `data:${mediaType};base64,${data}` };
    return undefined;
  }
  if (typeof data !== "string" || data.length === 0 || (url !== undefined && !url.startsWith("data:"))) return undefined;
  const filename = typeof part.filename === "string" ? part.filename : undefined;
  return { type: "file", data, ...(mediaType === undefined ? {} : { mediaType }), ...(filename === undefined ? {} : { filename }) };
}

export function readToolResultPart(part: Record<string, unknown>, path: FieldPath, issues: IssueSink): ToolResultFields | undefined {
  const callId = part.toolCallId;
  const toolName = part.toolName;
  if (typeof callId !== "string") issues.issue([...path, "toolCallId"], `a tool-result part needs the toolCallId of the call it answers (a string), got ${describeValue(callId)}`);
  if (typeof toolName !== "string") issues.issue([...path, "toolName"], `a tool-result part needs the tool name (a string), got ${describeValue(toolName)}`);
  const result = readOutput(part.output, [...path, "output"], issues);
  if (typeof callId !== "string" || typeof toolName !== "string" || result === undefined) return undefined;
  return { callId, toolName, ...result };
}

function readOutput(output: unknown, path: FieldPath, issues: IssueSink): { output: string; isError: boolean } | undefined {
  if (!isRecord(output) || typeof output.type !== "string") {
    issues.issue(path, `a tool-result part needs its output ({ type, value }), got ${describeValue(output)}`);
    return undefined;
  }
  switch (output.type) {
    case "text":
    case "error-text": {
      if (typeof output.value !== "string") {
        issues.issue([...path, "value"], `a ${output.type} output needs its value (a string), got ${describeValue(output.value)}`);
        return undefined;
      }
      return { output: output.value, isError: output.type === "error-text" };
    }
    case "execution-denied":
      return { output: typeof output.reason === "string" && output.reason.length > 0 ? output.reason : EXECUTION_DENIED_TEXT, isError: false };
    case "content": {
      if (!Array.isArray(output.value)) {
        issues.issue([...path, "value"], `a content output needs its value (an array of parts), got ${describeValue(output.value)}`);
        return undefined;
      }
      const texts = output.value.filter((entry: unknown) => isRecord(entry) && entry.type === "text" && typeof entry.text === "string").map((entry) => (entry as { text: string }).text);
      return { output: texts.join("\n"), isError: false };
    }
    default: {
      // json, error-json, and any output type a later AI SDK adds: its value as JSON text.
      const text = jsonText(output.value, [...path, "value"], issues);
      return text === undefined ? undefined : { output: text, isError: output.type.startsWith("error") };
    }
  }
}
