// The golden file form of an XML request: each message under a header naming its index and role,
// so a diff of a golden file reads like the conversation.
import type { XmlRequest } from "../xml-request.js";

export function transcript(request: XmlRequest): string {
  return request.messages.map((message, index) => `=== message ${index}: ${message.role} ===\n${message.content}\n`).join("\n");
}

/** The tag names of the opening tags in a text, in order. */
export function openingTags(text: string): string[] {
  return [...text.matchAll(/<([A-Za-z_][A-Za-z0-9_.-]*)[\s>/]/g)].map((match) => match[1]!);
}
