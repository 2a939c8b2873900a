// WORKING_FLOW chunks: the agent's own working notes. A compaction summary is the agent's progress
// so far, so like the todo list and thinking it is an assistant message; a user's intervention is user.
import type { ChunkRenderer } from "../chunk-renderer.js";
import { xmlElement } from "../xml-element.js";

export const workingFlowChunkRenderer: ChunkRenderer = {
  name: "WORKING_FLOW",
  canRender: (item) => item.type === "summary" || item.type === "todo-update" || item.type === "thinking" || item.type === "user-intervention",
  getRole: (item) => (item.type === "user-intervention" ? "user" : "assistant"),
  render(item) {
    switch (item.type) {
      case "summary": {
        // Summaries ctxpipe's compression writes list what they cover instead of counting it.
        const originalCount = item.originalCount ?? (item.coveredIds.length > 0 ? item.coveredIds.length : undefined);
        return xmlElement("progress_summary", { id: item.id, compacted_at: item.compactedAt, original_count: originalCount }, item.text);
      }
      case "todo-update":
        return xmlElement("todo_update", { id: item.id, action: item.action }, item.text);
      case "thinking":
        return xmlElement("thinking", { id: item.id, subtype: "THINKING" }, item.text);
      case "user-intervention":
        return xmlElement("user_intervention", { id: item.id, subtype: "USER" }, item.text);
      default:
        return "";
    }
  },
};
