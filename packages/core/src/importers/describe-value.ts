// Names the kind of a value for error messages ("got null", "got an array"). Strings and objects are
// not printed: stored records can be large or hold text the user would rather not see in a log.
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "undefined":
      return "nothing";
    case "object":
      return "an object";
    case "string":
      return value.length === 0 ? "an empty string" : "a string";
    case "number":
    case "boolean":
      return String(value);
    default:
      return `a ${typeof value}`;
  }
}
