// SYSTEM chunks: stored system context, `<system_context id priority>`. That tag always has a
// priority; a system message imported from chat has none, so it gets this default.
import type { ChunkRenderer } from "../chunk-renderer.js";
import { xmlElement } from "../xml-element.js";

/** The `priority` of a `<system_context>` whose item has no metadata.priority (the memory chunks' usual value). */
export const SYSTEM_CONTEXT_DEFAULT_PRIORITY = 1000;

export const systemChunkRenderer: ChunkRenderer = {
  name: "SYSTEM",
  canRender: (item) => item.type === "system",
  getRole: () => "system",
  render: (item) => (item.type === "system" ? xmlElement("system_context", { id: item.id, priority: item.metadata.priority ?? SYSTEM_CONTEXT_DEFAULT_PRIORITY }, item.text) : ""),
};
