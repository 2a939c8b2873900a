// Whether a request's JSON names a handle, without serializing the whole request for every build. A
// handle (ctx_ and hex digits) holds no character JSON escapes or puts between values, so it is named
// in the request's JSON exactly when it is in the JSON of one of its top-level values or, for an
// array, of one of its elements. Renderers hand back the same deep-frozen message objects from build
// to build, so each message's JSON is made once.
const jsonOfElement = new WeakMap<object, string>();

/** A test for handles over one request, serializing it (but its frozen messages, done before) on first use. */
export function namedInRequest(request: unknown): (handle: string) => boolean {
  let parts: string[] | undefined;
  return (handle) => {
    parts ??= jsonParts(request);
    for (const part of parts) if (part.includes(handle)) return true;
    return false;
  };
}

function jsonParts(request: unknown): string[] {
  if (!isPlainData(request) || Array.isArray(request)) return [JSON.stringify(request) ?? ""];
  const parts: string[] = [];
  for (const [key, value] of Object.entries(request)) {
    // An element with a toJSON of its own is given its index there: such an array is serialized whole.
    if (Array.isArray(value) && isPlainData(value) && value.every((element) => typeof element !== "object" || element === null || isPlainData(element))) {
      parts.push(JSON.stringify(key));
      for (const element of value) parts.push(elementJson(element));
      continue;
    }
    const json = JSON.stringify(value);
    // A value JSON leaves out (undefined, a function) takes its key with it.
    if (json !== undefined) parts.push(JSON.stringify(key), json);
  }
  return parts;
}

function elementJson(element: unknown): string {
  if (typeof element !== "object" || element === null) return JSON.stringify(element) ?? "";
  const known = jsonOfElement.get(element);
  if (known !== undefined) return known;
  const json = JSON.stringify(element) ?? "";
  // Only what can never change again is kept: deep-frozen plain data, with no getter or toJSON to run.
  if (isDeepFrozenData(element)) jsonOfElement.set(element, json);
  return json;
}

/** An object or array with the plain prototype and no toJSON, whose JSON is its fields'. */
function isPlainData(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === Array.prototype || prototype === null) && !("toJSON" in value);
}

function isDeepFrozenData(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "function";
  if (!Object.isFrozen(value) || !isPlainData(value)) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!("value" in descriptor) || !isDeepFrozenData(descriptor.value)) return false;
  }
  return true;
}
