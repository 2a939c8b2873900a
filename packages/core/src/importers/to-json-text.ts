// JSON text of a structured value (tool arguments, chunk payloads), or undefined when the value has no
// JSON form: a cycle or a BigInt makes JSON.stringify throw, and that must become an input issue.
export function toJsonText(value: unknown): string | undefined {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}
