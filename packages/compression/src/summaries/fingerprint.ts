// A short hash of items' content, stored on a summary record so that a later build can tell whether
// the messages it covers were edited since; the same hash of a text names a record stored without an
// id. FNV-1a in two 32-bit lanes: no dependency on node:crypto, so it runs wherever ctxpipe runs. Not
// a security measure.
import type { Item } from "@ctxpipe/core";

function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** What of an item a summary depends on: everything but its metadata's bookkeeping. */
function contentOf(item: Item): string {
  const { metadata: _metadata, ...content } = item;
  return JSON.stringify(content);
}

/** The same two-lane hash of one text: names a record that came without an id. */
export function textHashOf(text: string): string {
  const left = fnv1a(text, 0x811c9dc5);
  const right = fnv1a(text, (0x01000193 ^ 0x5bd1e995) ^ left);
  return `${left.toString(16).padStart(8, "0")}${right.toString(16).padStart(8, "0")}`;
}

export function fingerprintOf(items: ReadonlyArray<Item>): string {
  let left = 0x811c9dc5;
  let right = 0x01000193 ^ 0x5bd1e995;
  for (const item of items) {
    const text = contentOf(item);
    left = fnv1a(text, left);
    right = fnv1a(text, right ^ left);
  }
  return `fnv1a:${left.toString(16).padStart(8, "0")}${right.toString(16).padStart(8, "0")}`;
}
