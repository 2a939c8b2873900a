// Reads a LangChain message's `content`: a string, or a list of blocks in any of the forms LangChain
// accepts (provider-native `text`/`image_url`/`thinking`, the v0 data blocks with `source_type`, the
// v1 standard blocks of `contentBlocks`). Text blocks are joined with "\n"; the other blocks the item
// has a place for become attachments (human) or reasoning (ai); the rest stays in the original list,
// which the renderer restores.
import type { Attachment } from "@ctxpipe/core";

export interface Reasoning {
  text: string;
  signature?: string;
  redacted?: boolean;
}

export interface LangChainContent {
  readonly text: string;
  readonly attachments: Attachment[];
  readonly reasoning: Reasoning[];
  /** Whether the content was a list of blocks (kept verbatim for rendering back). */
  readonly blocks: boolean;
}

export interface ContentProblem {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? ""}`.trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(block: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = block[key];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return undefined;
}

const DETAILS = new Set(["auto", "low", "high"]);

function imageAttachment(block: Record<string, unknown>): Attachment | undefined {
  if (block.type === "image_url") {
    const image = block.image_url;
    if (typeof image === "string") return image.length > 0 ? { type: "image", url: image } : undefined;
    if (!isRecord(image) || typeof image.url !== "string" || image.url.length === 0) return undefined;
    return typeof image.detail === "string" && DETAILS.has(image.detail) ? { type: "image", url: image.url, detail: image.detail as "auto" | "low" | "high" } : { type: "image", url: image.url };
  }
  // v1 `{ type: "image", url | data, mimeType }`, v0 `{ type: "image", source_type, url | data, mime_type }`.
  const url = stringField(block, "url");
  if (url !== undefined) return { type: "image", url };
  const data = stringField(block, "data");
  if (data === undefined) return undefined;
  const mediaType = stringField(block, "mimeType", "mime_type") ?? "image/png";
  return { type: "image", url: data.startsWith("data:") ? data : `data:${mediaType};base64,${data}` };
}

function fileAttachment(block: Record<string, unknown>): Attachment | undefined {
  const data = stringField(block, "data");
  const fileId = stringField(block, "fileId", "file_id", ...(block.source_type === "id" ? ["id"] : []));
  if (data === undefined && fileId === undefined) return undefined;
  const mediaType = stringField(block, "mimeType", "mime_type");
  const metadata = isRecord(block.metadata) ? block.metadata : {};
  const filename = stringField(block, "filename") ?? stringField(metadata, "filename", "name");
  return {
    type: "file",
    ...(data === undefined ? {} : { data }),
    ...(fileId === undefined ? {} : { fileId }),
    ...(filename === undefined ? {} : { filename }),
    ...(mediaType === undefined ? {} : { mediaType }),
  };
}

export interface ReadContentOptions {
  /** Images and files become attachments (human messages). */
  readonly attachments: boolean;
  /** Reasoning and thinking blocks become reasoning (ai messages). */
  readonly reasoning: boolean;
}

export function readLangChainContent(content: unknown, options: ReadContentOptions, problem: (problem: ContentProblem) => void): LangChainContent {
  const empty = { text: "", attachments: [], reasoning: [], blocks: false };
  if (typeof content === "string") return { ...empty, text: content };
  if (content === undefined || content === null) return empty;
  if (!Array.isArray(content)) {
    problem({ path: ["content"], message: `expected a string or an array of content blocks, got ${describeValue(content)}` });
    return empty;
  }
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  const reasoning: Reasoning[] = [];
  content.forEach((block: unknown, position) => {
    // A bare string in the list is text, as LangChain's own `text` getter reads it.
    if (typeof block === "string") {
      texts.push(block);
      return;
    }
    if (!isRecord(block)) {
      problem({ path: ["content", position], message: `expected a content block object, got ${describeValue(block)}` });
      return;
    }
    const type = block.type;
    if (typeof type !== "string") {
      problem({ path: ["content", position, "type"], message: `expected the block type (a string), got ${describeValue(type)}` });
      return;
    }
    if (type === "text") {
      if (typeof block.text !== "string") problem({ path: ["content", position, "text"], message: `a text block needs the field "text" (a string), got ${describeValue(block.text)}` });
      else texts.push(block.text);
    } else if (options.attachments && (type === "image_url" || type === "image")) {
      const image = imageAttachment(block);
      if (image !== undefined) attachments.push(image);
    } else if (options.attachments && type === "file") {
      const file = fileAttachment(block);
      if (file !== undefined) attachments.push(file);
    } else if (options.reasoning && type === "reasoning" && typeof block.reasoning === "string") {
      reasoning.push({ text: block.reasoning });
    } else if (options.reasoning && type === "thinking" && typeof block.thinking === "string") {
      reasoning.push(typeof block.signature === "string" && block.signature.length > 0 ? { text: block.thinking, signature: block.signature } : { text: block.thinking });
    } else if (options.reasoning && type === "redacted_thinking" && typeof block.data === "string") {
      reasoning.push({ text: block.data, redacted: true });
    }
    // Anything else (tool_use copies of tool_calls, citations, provider blocks) stays in the kept list.
  });
  return { text: texts.join("\n"), attachments, reasoning, blocks: true };
}
