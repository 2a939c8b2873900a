// Whether a value can still change: what is worked out from a deep-frozen value can be kept with it.

/**
 * Whether nothing in `value` can change: primitives, and frozen plain objects and arrays of them (a
 * Date, or any other class, keeps state a freeze does not reach). What is worked out from such a value
 * can be kept for as long as the value lives.
 */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "function";
  if (!Object.isFrozen(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false;
  for (const child of Object.values(value)) if (!isDeepFrozen(child)) return false;
  return true;
}
