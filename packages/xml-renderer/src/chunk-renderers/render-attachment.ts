// A user's image or file, as an empty element after the message text: the XML request carries text
// only, so the model learns what was attached without the payload. data: URLs and base64 data are
// left out (they would cost more tokens than they are worth as text).
import type { Attachment } from "@ctxpipe/core";
import { xmlEmptyElement } from "../xml-element.js";

function mediaTypeOfDataUrl(url: string): string | undefined {
  return /^data:([^;,]+)/.exec(url)?.[1];
}

export function renderAttachment(attachment: Attachment): string {
  if (attachment.type === "image") {
    const isData = attachment.url.startsWith("data:");
    return xmlEmptyElement("attachment", {
      type: "image",
      url: isData ? undefined : attachment.url,
      media_type: isData ? mediaTypeOfDataUrl(attachment.url) : undefined,
      detail: attachment.detail,
    });
  }
  const dataMediaType = attachment.data?.startsWith("data:") ? mediaTypeOfDataUrl(attachment.data) : undefined;
  return xmlEmptyElement("attachment", {
    type: "file",
    filename: attachment.filename,
    media_type: attachment.mediaType ?? dataMediaType,
    file_id: attachment.fileId,
  });
}
