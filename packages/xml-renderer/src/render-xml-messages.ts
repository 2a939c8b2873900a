// The XML renderer without the pipeline: items in, chat messages of tagged text out. Each item goes
// to the first chunk renderer that can render it; consecutive items of the same role are merged into
// one message, as the chunk transcript groups its chunks.
import type { Item } from "@ctxpipe/core";
import type { ChunkRenderer } from "./chunk-renderer.js";
import { CHUNK_SEPARATOR } from "./chunk-separator.js";
import { DEFAULT_CHUNK_RENDERERS } from "./chunk-renderers/default-chunk-renderers.js";
import type { XmlMessage, XmlRequest, XmlRole } from "./xml-request.js";

export interface RenderXmlMessagesOptions {
  /** Consulted ahead of the built-in renderers, in order. */
  readonly renderers?: ReadonlyArray<ChunkRenderer>;
  /** Remembers each item's rendering across calls; items are immutable, so it stays right. */
  readonly cache?: WeakMap<Item, RenderedChunk>;
}

/** One item's rendering. */
export interface RenderedChunk {
  readonly role: XmlRole;
  /** "" when the item renders to nothing. */
  readonly text: string;
  readonly renderer: string;
}

export interface RenderedXmlMessages {
  readonly request: XmlRequest;
  /** The message that carries each rendered item. */
  readonly messageIndexById: Map<string, number>;
  /** Items that rendered to nothing, with the renderer that said so. */
  readonly empty: Array<{ readonly item: Item; readonly renderer: string }>;
}

const ROLES: ReadonlySet<string> = new Set(["system", "user", "assistant"]);

/** The first renderer that can render the item, and what it makes of it. Throws naming a renderer that breaks the contract. */
export function renderChunk(item: Item, renderers: ReadonlyArray<ChunkRenderer>): RenderedChunk {
  for (const [position, renderer] of renderers.entries()) {
    if (!renderer.canRender(item)) continue;
    const name = renderer.name ?? `renderers[${position}]`;
    const role = renderer.getRole(item);
    if (typeof role !== "string" || !ROLES.has(role)) {
      throw new TypeError(`chunk renderer "${name}" gave item "${item.id}" the role ${JSON.stringify(role)}; expected "system", "user" or "assistant"`);
    }
    const text = renderer.render(item);
    if (typeof text !== "string") throw new TypeError(`chunk renderer "${name}" rendered item "${item.id}" as ${typeof text}; expected a string`);
    return { role, text, renderer: name };
  }
  // The built-in renderers cover every item type, so only a renderer list without them gets here.
  throw new TypeError(`no chunk renderer can render item "${item.id}" of type "${item.type}"`);
}

export function renderXmlMessages(items: ReadonlyArray<Item>, options: RenderXmlMessagesOptions = {}): RenderedXmlMessages {
  const renderers = [...(options.renderers ?? []), ...DEFAULT_CHUNK_RENDERERS];
  const cache = options.cache;
  const messages: XmlMessage[] = [];
  const messageIndexById = new Map<string, number>();
  const empty: Array<{ item: Item; renderer: string }> = [];
  let last: XmlMessage | undefined;
  for (const item of items) {
    let chunk = cache?.get(item);
    if (chunk === undefined) {
      chunk = renderChunk(item, renderers);
      cache?.set(item, chunk);
    }
    if (chunk.text.length === 0) {
      empty.push({ item, renderer: chunk.renderer });
      continue;
    }
    if (last !== undefined && last.role === chunk.role) last.content += CHUNK_SEPARATOR + chunk.text;
    else {
      last = { role: chunk.role, content: chunk.text };
      messages.push(last);
    }
    messageIndexById.set(item.id, messages.length - 1);
  }
  return { request: { messages }, messageIndexById, empty };
}
