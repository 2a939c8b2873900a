// Whether a value is a JSON-style object whose fields can be read: not null and not an array.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
