// An item a stage makes itself, made the way the pipeline's check would make it: parsed (defaults
// filled in) and frozen through. The check keeps such an item as it is, so a list holding it is
// handed on without a parsed copy put in its place, and per-item caches (counts, rendered messages)
// keep hitting when the stage gives the same object again next build.
import { deepFreeze } from "./deep-freeze.js";
import type { Item } from "./item.js";
import { parseItem } from "./parse-items.js";

/** `made` parsed and frozen through; `made` itself when it is not a valid item (the check reports it where it is returned). */
export function frozenItem<T extends Item>(made: T): T {
  const parsed = parseItem(made, 0);
  return Array.isArray(parsed) ? made : (deepFreeze(parsed) as T);
}
