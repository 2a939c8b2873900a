// Chunks of the application's own type or sub-type, when no custom chunk renderer claims them:
// `<memory_chunk id type subtype>` with the chunk's text, in the role it was imported with. Register a
// ChunkRenderer (read the stored chunk with memoryChunkOf) to give them tags of their own.
import type { ChunkRenderer } from "../chunk-renderer.js";
import { memoryChunkOf, memoryChunkSubTypeOf } from "../memory-chunk-of.js";
import { xmlElement } from "../xml-element.js";

export const ownChunkRenderer: ChunkRenderer = {
  name: "own-chunk",
  canRender: (item) => memoryChunkOf(item) !== undefined,
  getRole: (item) => (item.role === "user" || item.role === "system" ? item.role : "assistant"),
  render(item) {
    const chunk = memoryChunkOf(item);
    if (chunk === undefined || !("text" in item)) return "";
    return xmlElement("memory_chunk", { id: item.id, type: chunk.type, subtype: memoryChunkSubTypeOf(chunk) }, item.text);
  },
};
