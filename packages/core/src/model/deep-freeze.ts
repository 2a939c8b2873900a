// Freezes a JSON-like value and everything in it, so an object shared between builds cannot change
// under a cache that remembers it.
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
