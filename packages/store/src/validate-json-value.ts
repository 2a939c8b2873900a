// Checks that a value survives JSON.stringify and JSON.parse unchanged, so what a store loads is what
// the caller appended. JSON.stringify alone would turn NaN into null, drop functions, throw on bigint
// and cycles, and turn a Date or a Map into something else without a word.

/** A problem at a field path inside a record ("tool_calls.0.id"; "" for the record itself). */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/** Deeper than this is refused rather than risking a stack overflow while serializing. */
const MAX_DEPTH = 256;

/**
 * Every place in `value` that JSON would not carry losslessly. An object property whose value is
 * `undefined` is allowed and simply absent after a round trip (how an optional field is left out).
 */
export function jsonValueProblems(value: unknown, path = ""): FieldProblem[] {
  const problems: FieldProblem[] = [];
  walk(value, path, 0, new Set(), problems);
  return problems;
}

function walk(value: unknown, path: string, depth: number, ancestors: Set<object>, problems: FieldProblem[]): void {
  switch (typeof value) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (!Number.isFinite(value)) problems.push({ field: path, message: `${value} is not representable in JSON` });
      return;
    case "undefined":
      problems.push({ field: path, message: "undefined is not representable in JSON here" });
      return;
    case "bigint":
      problems.push({ field: path, message: "a bigint is not representable in JSON (store it as a string)" });
      return;
    case "function":
      problems.push({ field: path, message: "a function is not representable in JSON" });
      return;
    case "symbol":
      problems.push({ field: path, message: "a symbol is not representable in JSON" });
      return;
  }
  if (value === null) return;
  const object = value as object;
  if (depth >= MAX_DEPTH) {
    problems.push({ field: path, message: `nested deeper than ${MAX_DEPTH} levels` });
    return;
  }
  if (ancestors.has(object)) {
    problems.push({ field: path, message: "a circular reference is not representable in JSON" });
    return;
  }
  ancestors.add(object);
  if (Array.isArray(object)) {
    for (let index = 0; index < object.length; index++) {
      const itemPath = join(path, String(index));
      if (!(index in object)) problems.push({ field: itemPath, message: "a hole in an array is not representable in JSON" });
      else if (object[index] === undefined) problems.push({ field: itemPath, message: "undefined inside an array would be stored as null" });
      else walk(object[index], itemPath, depth + 1, ancestors, problems);
    }
  } else if (isPlainObject(object)) {
    if (Object.getOwnPropertySymbols(object).length > 0) problems.push({ field: path, message: "symbol-keyed properties are not representable in JSON" });
    for (const [key, child] of Object.entries(object)) {
      if (child !== undefined) walk(child, join(path, key), depth + 1, ancestors, problems);
    }
  } else {
    const kind = object.constructor?.name ?? "object";
    problems.push({ field: path, message: `a ${kind} is not a plain JSON value (convert it first, e.g. a Date to its ISO string)` });
  }
  ancestors.delete(object);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
