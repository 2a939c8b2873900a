// Turns a user attachment into an Anthropic content block: data: URLs and stored base64 become base64
// sources, other URLs become url sources. What Anthropic cannot take (a provider file id, a Word file,
// an SVG) becomes a short text note, so the model knows something was attached instead of the request failing.
import type { Attachment } from "@ctxpipe/core";
import type { AnthropicDocumentBlock, AnthropicImageBlock, AnthropicImageMediaType, AnthropicTextBlock } from "./anthropic-messages-request.js";

const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set<AnthropicImageMediaType>(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

interface InlineData {
  readonly mediaType: string;
  readonly base64: boolean;
  readonly data: string;
}

function parseDataUrl(url: string, fallbackMediaType?: string): InlineData | undefined {
  const match = DATA_URL.exec(url);
  if (match === null) return undefined;
  const mediaType = match[1]!.toLowerCase();
  return { mediaType: mediaType.length > 0 ? mediaType : (fallbackMediaType ?? "text/plain"), base64: match[2]!.toLowerCase().includes(";base64"), data: match[3]! };
}

function isImageMediaType(mediaType: string): mediaType is AnthropicImageMediaType {
  return IMAGE_MEDIA_TYPES.has(mediaType);
}

/** Plain text documents are sent as text, not base64; undefined when the data does not decode. */
function decodeText(inline: InlineData): string | undefined {
  try {
    if (!inline.base64) return decodeURIComponent(inline.data);
    const bytes = Uint8Array.from(atob(inline.data), (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const note = (text: string): AnthropicTextBlock => ({ type: "text", text });

function fileBlock(inline: InlineData, title: string | undefined): AnthropicDocumentBlock | AnthropicImageBlock | AnthropicTextBlock {
  const titled = title === undefined ? {} : { title };
  if (inline.mediaType === "text/plain") {
    const text = decodeText(inline);
    if (text !== undefined) return { type: "document", source: { type: "text", media_type: "text/plain", data: text }, ...titled };
  } else if (inline.base64 && inline.mediaType === "application/pdf") {
    return { type: "document", source: { type: "base64", media_type: "application/pdf", data: inline.data }, ...titled };
  } else if (inline.base64 && isImageMediaType(inline.mediaType)) {
    return { type: "image", source: { type: "base64", media_type: inline.mediaType, data: inline.data } };
  }
  return note(`[Attached file${title === undefined ? "" : ` ${title}`} not sent: Anthropic accepts PDF, plain text and JPEG, PNG, GIF or WebP images, not ${inline.mediaType}]`);
}

export function anthropicAttachmentBlock(attachment: Attachment): AnthropicImageBlock | AnthropicDocumentBlock | AnthropicTextBlock {
  if (attachment.type === "image") {
    const inline = parseDataUrl(attachment.url);
    if (inline === undefined) return { type: "image", source: { type: "url", url: attachment.url } };
    if (inline.base64 && isImageMediaType(inline.mediaType)) return { type: "image", source: { type: "base64", media_type: inline.mediaType, data: inline.data } };
    return note(`[Attached image not sent: Anthropic accepts base64 JPEG, PNG, GIF or WebP images, not ${inline.mediaType}]`);
  }
  const title = attachment.filename;
  if (attachment.data === undefined) {
    // A file id names a file in some provider's file store, usually not Anthropic's.
    return note(`[Attached file${title === undefined ? "" : ` ${title}`} not sent: it is stored as file id ${attachment.fileId}, and only file data can be sent]`);
  }
  const mediaType = attachment.mediaType?.toLowerCase() ?? "application/octet-stream";
  const inline = parseDataUrl(attachment.data, mediaType) ?? { mediaType, base64: true, data: attachment.data };
  return fileBlock(inline, title);
}
