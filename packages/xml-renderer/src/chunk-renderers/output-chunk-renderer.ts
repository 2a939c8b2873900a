// OUTPUT chunks: how the task ended.
import type { ChunkRenderer } from "../chunk-renderer.js";
import { xmlElement } from "../xml-element.js";

export const outputChunkRenderer: ChunkRenderer = {
  name: "OUTPUT",
  canRender: (item) => item.type === "task-completed" || item.type === "task-abandoned" || item.type === "task-terminated",
  getRole: () => "assistant",
  render(item) {
    switch (item.type) {
      case "task-completed":
        return xmlElement("task_completed", { id: item.id }, item.text);
      case "task-abandoned":
        return xmlElement("task_abandoned", { id: item.id, reason: item.reason }, item.text);
      case "task-terminated":
        return xmlElement("task_terminated", { id: item.id, terminated_by: item.terminatedBy }, item.text);
      default:
        return "";
    }
  },
};
