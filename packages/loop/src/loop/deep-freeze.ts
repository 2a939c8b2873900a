// Freezes a JSON-like value and everything in it: a message the call's own log keeps is then read
// once by importStoredMessages, as the stores' frozen messages are.
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
