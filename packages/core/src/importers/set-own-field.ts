// Sets a field as an own property even when its name is "__proto__", which plain assignment would
// turn into a prototype change: stored JSON may hold such a key, and it must be kept like any other.
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
