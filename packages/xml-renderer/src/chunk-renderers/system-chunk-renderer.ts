// SYSTEM chunks: stored system context, `<system_context id priority>`.
import type { ChunkRenderer } from "../chunk-renderer.js";
import { xmlElement } from "../xml-element.js";

export const systemChunkRenderer: ChunkRenderer = {
  name: "SYSTEM",
  canRender: (item) => item.type === "system",
  getRole: () => "system",
  render: (item) => (item.type === "system" ? xmlElement("system_context", { id: item.id, priority: item.metadata.priority }, item.text) : ""),
};
