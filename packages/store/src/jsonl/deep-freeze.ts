// Loaded records are shared between loads (the reader caches them), so callers get them frozen.
// Called once per loaded record: arrays are walked by index and objects with for-in, which allocate
// nothing per object (Object.values made an array for each).
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) deepFreeze(value[index]);
    } else {
      const record = value as Record<string, unknown>;
      for (const key in record) if (Object.hasOwn(record, key)) deepFreeze(record[key]);
    }
  }
  return value;
}
