// A chunk of the application's own type or sub-type, as the memory-chunk importer keeps it
// (`metadata.extra.memoryChunk`): what a custom chunk renderer reads the chunk's own fields from.
import type { Item } from "@ctxpipe/core";

/** A memory chunk as it was stored; only `type` is known to be there. */
export interface StoredMemoryChunk {
  readonly id?: unknown;
  readonly type: string;
  readonly subType?: unknown;
  readonly content?: unknown;
  readonly metadata?: { readonly custom?: Readonly<Record<string, unknown>>; readonly [field: string]: unknown };
  readonly [field: string]: unknown;
}

/** The stored chunk behind an item imported from a chunk of the application's own type or sub-type; undefined for any other item. */
export function memoryChunkOf(item: Item): StoredMemoryChunk | undefined {
  const chunk = item.metadata.extra?.memoryChunk;
  if (typeof chunk !== "object" || chunk === null || Array.isArray(chunk)) return undefined;
  return typeof (chunk as { type?: unknown }).type === "string" ? (chunk as StoredMemoryChunk) : undefined;
}

/** The chunk's sub-type, where the importer looks for it: the chunk, then its content. */
export function memoryChunkSubTypeOf(chunk: StoredMemoryChunk): string | undefined {
  const content = typeof chunk.content === "object" && chunk.content !== null ? (chunk.content as Record<string, unknown>) : {};
  for (const place of [chunk, content]) {
    for (const key of ["subType", "subtype", "sub_type"]) {
      const value = place[key];
      if (typeof value === "string" && value.length > 0) return value;
    }
  }
  return undefined;
}
