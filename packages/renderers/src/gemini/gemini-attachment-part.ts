// Renders an attachment as a Gemini part: data (a data: URL or bare base64) as inlineData, anything
// addressed by URL or file id as fileData.
import type { Attachment } from "@ctxpipe/core";
import type { GeminiPart } from "./gemini-request.js";
import { guessMediaType } from "./guess-media-type.js";

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;
const FALLBACK_MEDIA_TYPE = "application/octet-stream";

function base64OfText(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray "%" is kept as it is rather than failing the build
  }
}

/** inlineData for a data: URL; Gemini takes bare base64, so the prefix is split off. */
function inlineDataOfUrl(url: string, fallbackType: string | undefined): GeminiPart | undefined {
  const match = DATA_URL.exec(url);
  if (match === null) return undefined;
  const [, mediaType = "", parameters = "", payload = ""] = match;
  const base64 = parameters.split(";").includes("base64");
  return {
    inlineData: {
      // RFC 2397: a data: URL without a type is text/plain.
      mimeType: mediaType.length > 0 ? mediaType : (fallbackType ?? "text/plain"),
      data: base64 ? payload : base64OfText(percentDecoded(payload)),
    },
  };
}

function fileData(fileUri: string, mimeType: string | undefined): GeminiPart {
  return { fileData: mimeType === undefined ? { fileUri } : { fileUri, mimeType } };
}

export function geminiAttachmentPart(attachment: Attachment): GeminiPart {
  if (attachment.type === "image") {
    return inlineDataOfUrl(attachment.url, undefined) ?? fileData(attachment.url, guessMediaType(attachment.url));
  }
  const mediaType = attachment.mediaType ?? guessMediaType(attachment.filename);
  if (attachment.data !== undefined) {
    return inlineDataOfUrl(attachment.data, mediaType) ?? { inlineData: { mimeType: mediaType ?? FALLBACK_MEDIA_TYPE, data: attachment.data } };
  }
  // The schema guarantees a fileId when there is no data; it must be a Gemini Files API URI (or gs://).
  const fileUri = attachment.fileId ?? "";
  return fileData(fileUri, mediaType ?? guessMediaType(fileUri));
}
