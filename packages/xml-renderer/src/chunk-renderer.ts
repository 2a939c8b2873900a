// The per-chunk contract of the memory-chunk transcript, the XML renderer's extension point. The renderer asks each
// chunk renderer in turn (yours first, then the built-in ones) and the first that can render an item
// renders it. Consecutive items with the same role end up in one message.
import type { Item } from "@ctxpipe/core";
import type { XmlRole } from "./xml-request.js";

export interface ChunkRenderer {
  /** Names the renderer in errors. */
  readonly name?: string;
  /** Whether this renderer handles the item; the first one that says yes renders it. */
  canRender(item: Item): boolean;
  /** The role of the message that carries the item. */
  getRole(item: Item): XmlRole;
  /**
   * The item's tagged text; "" leaves the item out (the report says so). It must be a pure function
   * of the item, since results are cached per item. Escape what you take from the item (xmlElement,
   * escapeXmlText), or content could forge your tags.
   */
  render(item: Item): string;
}
