// AGENT chunks: `<user_message>`, `<assistant_response>`, `<assistant_clarification>`. An assistant
// item also carries its reasoning (rendered first, as `<thinking>`) and its calls (WORKFLOW chunks,
// after the text), in the order the model produced them. A persisted LLM error is `<error>`.
import { isBlank } from "@ctxpipe/core";
import type { ChunkRenderer } from "../chunk-renderer.js";
import { CHUNK_SEPARATOR } from "../chunk-separator.js";
import { escapeXmlText } from "../xml-escaping.js";
import { xmlElement } from "../xml-element.js";
import { renderAttachment } from "./render-attachment.js";
import { renderToolCall } from "./render-tool-call.js";

export const agentChunkRenderer: ChunkRenderer = {
  name: "AGENT",
  canRender: (item) => item.type === "user" || item.type === "assistant" || item.type === "error",
  getRole: (item) => (item.type === "user" ? "user" : "assistant"),
  render(item) {
    switch (item.type) {
      case "user": {
        const attachments = item.attachments ?? [];
        if (attachments.length === 0) return xmlElement("user_message", { id: item.id, role: "user" }, item.text);
        const lines = [escapeXmlText(item.text), ...attachments.map(renderAttachment)];
        return xmlElement("user_message", { id: item.id, role: "user" }, { raw: lines.join("\n") });
      }
      case "assistant": {
        const parts: string[] = [];
        for (const reasoning of item.reasoning ?? []) {
          // Provider-encrypted reasoning has no text a model could read.
          if (reasoning.redacted !== true) parts.push(xmlElement("thinking", { id: item.id, subtype: "THINKING" }, reasoning.text));
        }
        if (item.clarification === true) {
          parts.push(xmlElement("assistant_clarification", { id: item.id, role: "assistant", action: "clarification" }, item.text));
        } else if (!isBlank(item.text) || item.toolCalls.length === 0) {
          parts.push(xmlElement("assistant_response", { id: item.id, role: "assistant" }, item.text));
        }
        for (const call of item.toolCalls) parts.push(renderToolCall(item, call));
        return parts.join(CHUNK_SEPARATOR);
      }
      case "error":
        return xmlElement("error", { id: item.id, code: item.code }, item.text);
      default:
        return "";
    }
  },
};
