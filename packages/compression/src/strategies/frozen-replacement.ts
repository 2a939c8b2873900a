// A strategy's replacement for an item (a cleared or cut result) as a deep-frozen object. The check
// after a compress tap takes a deep-frozen item that is already what parsing makes of it as it is;
// any other new object is parsed into a copy on the first build, and every later build puts that copy
// back in the list in its place. The item's own nested values (its metadata) are frozen only when the
// caller gave them frozen: the others are copied, so nothing of the caller's is frozen under it.
import { frozenCopy, type Item } from "@ctxpipe/core";

/** `item` with `changes`, frozen through and through: nested values not already deep-frozen are frozen copies. */
export function frozenReplacement<T extends Item>(item: T, changes: Partial<T>): T {
  const made: Record<string, unknown> = { ...item, ...changes };
  for (const key in made) {
    const value = made[key];
    if (typeof value === "object" && value !== null) made[key] = frozenCopy(value);
  }
  return Object.freeze(made) as T;
}
