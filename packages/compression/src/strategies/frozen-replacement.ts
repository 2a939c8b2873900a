// A strategy's replacement for an item (a cleared or cut result) as a deep-frozen object. The check
// after a compress tap takes a deep-frozen item that is already what parsing makes of it as it is;
// any other new object is parsed into a copy on the first build, and every later build puts that copy
// back in the list in its place. The item's own nested values (its metadata) are frozen only when the
// caller gave them frozen: the others are copied, so nothing of the caller's is frozen under it.
import { type Item, isDeepFrozen } from "@ctxpipe/core";

/** `item` with `changes`, frozen through and through: nested values not already deep-frozen are frozen copies. */
export function frozenReplacement<T extends Item>(item: T, changes: Partial<T>): T {
  const made: Record<string, unknown> = { ...item, ...changes };
  for (const key in made) {
    const value = made[key];
    if (typeof value === "object" && value !== null) made[key] = frozenCopy(value);
  }
  return Object.freeze(made) as T;
}

/** A deep-frozen copy of a JSON-like value, or the value itself when it already is one or holds anything else (a class instance is left alone). */
function frozenCopy(value: object): unknown {
  if (isDeepFrozen(value)) return value;
  const copy = plainCopy(value);
  return copy === undefined ? value : copy;
}

/** A frozen copy of plain arrays and objects all the way down; undefined when something else is in it. */
function plainCopy(value: unknown): unknown {
  if (typeof value === "function") return undefined;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const child = plainCopy(value[index]);
      if (child === undefined && value[index] !== undefined) return undefined;
      copy.push(child);
    }
    return Object.freeze(copy);
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const copy: Record<string, unknown> = prototype === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    const child = plainCopy((value as Record<string, unknown>)[key]);
    if (child === undefined && (value as Record<string, unknown>)[key] !== undefined) return undefined;
    copy[key] = child;
  }
  return Object.freeze(copy);
}
