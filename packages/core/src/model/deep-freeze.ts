// Freezes a JSON-like value and everything in it, so an object shared between builds cannot change
// under a cache that remembers it. Arrays are walked by index and objects with for-in, which allocate
// nothing per object (Object.values made an array for each, for every record of a 10,000-message import).
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) deepFreeze(value[index]);
  } else {
    const record = value as Record<string, unknown>;
    for (const key in record) if (Object.hasOwn(record, key)) deepFreeze(record[key]);
  }
  return value;
}
