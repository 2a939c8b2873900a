// Drops the properties whose value is undefined, so optional fields of an item can be written in one
// object literal: with exactOptionalPropertyTypes an optional property may be absent, never undefined.
export type WithoutUndefined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

export function withoutUndefined<T extends Record<string, unknown>>(fields: T): WithoutUndefined<T> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) result[key] = value;
  }
  return result as WithoutUndefined<T>;
}
