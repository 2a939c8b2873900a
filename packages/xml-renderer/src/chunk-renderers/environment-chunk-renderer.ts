// ENVIRONMENT chunks: tool and skill results. They reach the model as user text; a failed call
// says success="false" error="true".
import type { ChunkRenderer } from "../chunk-renderer.js";
import { xmlElement } from "../xml-element.js";

export const environmentChunkRenderer: ChunkRenderer = {
  name: "ENVIRONMENT",
  canRender: (item) => item.type === "tool-result",
  getRole: () => "user",
  render(item) {
    if (item.type !== "tool-result") return "";
    const outcome = { success: !item.isError, error: item.isError ? true : undefined };
    if (item.kind === "skill") return xmlElement("skill_result", { id: item.id, skill: item.toolName, call_id: item.callId, ...outcome }, item.output);
    return xmlElement("tool_result", { id: item.id, tool: item.toolName, call_id: item.callId, ...outcome }, item.output);
  },
};
