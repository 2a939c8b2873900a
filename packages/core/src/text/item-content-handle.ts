// The handle of an item's offloaded text, kept per item: a cleared result is offloaded again on every
// build, and hashing its whole original each time would cost more than the rest of the build.
import { contentHandle } from "./content-handle.js";

const handles = new WeakMap<object, { readonly text: string; readonly handle: string }>();

/** contentHandle(text), remembered for the item that holds the text (recomputed if its text changed). */
export function itemContentHandle(item: unknown, text: string): string {
  if (typeof item !== "object" || item === null) return contentHandle(text);
  const known = handles.get(item);
  if (known !== undefined && known.text === text) return known.handle;
  const handle = contentHandle(text);
  handles.set(item, { text, handle });
  return handle;
}
