// An item a plugin makes itself, made the way the pipeline's check would make it: parsed (defaults
// filled in, keys in the order parsing gives them) and frozen through. The check keeps such an item as
// it is, so a list holding it is handed on without a parsed copy put in its place, and per-item caches
// (counts, rendered messages) keep hitting when the plugin gives the same object again next build.
import { deepFreeze } from "./deep-freeze.js";
import { frozenCopy } from "./frozen-copy.js";
import type { Item, ItemInput, ItemOf } from "./item.js";
import { parseItem, parseItems } from "./parse-items.js";

/**
 * `input` as the pipeline keeps an item a plugin adds: parsed and frozen through, as a copy (nothing
 * of `input` is frozen), or `input` itself when it already is such an item. Make it once and return
 * the same object on every build: the check takes it as it is, and what later stages did with it is
 * reused.
 *
 * @throws InvalidInputError naming the field, when `input` is not a valid item or its id starts with
 * the prefix reserved for the items ctxpipe makes.
 * @example
 * const reminder = frozenItem({ id: "reminder", type: "user", text: "Answer in English." });
 */
export function frozenItem<T extends ItemInput>(input: T): ItemOf<T["type"]> {
  const [parsed] = parseItems([input], "item");
  return frozenCopy(parsed!) as ItemOf<T["type"]>;
}

/**
 * For ctxpipe's own stages (ids under the reserved prefix allowed): `made` parsed and frozen through;
 * `made` itself when it is not a valid item (the check reports it where it is returned).
 */
export function frozenMadeItem<T extends Item>(made: T): T {
  const parsed = parseItem(made, 0);
  return Array.isArray(parsed) ? made : (deepFreeze(parsed) as T);
}
