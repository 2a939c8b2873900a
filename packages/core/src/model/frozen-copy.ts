// A deep-frozen copy of JSON-like data, for objects shared between builds that must not change under
// the caches that remember them, made without freezing anything of the caller's.
import { isDeepFrozen } from "./is-deep-frozen.js";

/**
 * `value` frozen through, as a copy: the value itself when it is already deep-frozen, or when it holds
 * anything but plain objects, arrays and primitives (a class instance, a function), which are left
 * alone; otherwise a copy whose objects and arrays are all frozen. The caller's objects are never frozen.
 *
 * @example
 * const metadata = frozenCopy({ extra: { tags: ["a"] } }); // Object.isFrozen(metadata.extra.tags) === true
 */
export function frozenCopy<Value>(value: Value): Value {
  if (typeof value !== "object" || value === null || isDeepFrozen(value)) return value;
  const copy = plainCopy(value);
  return (copy === undefined ? value : copy) as Value;
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
