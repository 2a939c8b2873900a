// ["tool_calls", 0, "function", "name"] → "tool_calls[0].function.name"; [] → undefined (the record).
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string | undefined {
  if (path.length === 0) return undefined;
  return path.map((part, position) => (typeof part === "number" ? `[${part}]` : position === 0 ? String(part) : `.${String(part)}`)).join("");
}
