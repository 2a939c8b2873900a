// The arguments a model passes to retrieve_context, checked before anything is read: a model that
// gets a clear message can correct its call, where a TypeError would teach it nothing.

/** A retrieve_context call's arguments, once checked. */
export interface RetrieveContextArguments {
  readonly handle: string;
  readonly from?: number;
  readonly to?: number;
}

/**
 * Checks what a model passed to retrieve_context. Throws an `Error` whose message is written for the
 * model (a tool sends it back as the call's error): which argument is wrong and what it must be.
 */
export function retrieveContextArguments(args: unknown): RetrieveContextArguments {
  const { handle, from, to } = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  if (typeof handle !== "string" || handle === "") throw new Error('"handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")');
  for (const [name, value] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < 0)) throw new Error(`"${name}" must be a whole number of at least 0, got ${JSON.stringify(value)}`);
  }
  return { handle, ...(from === undefined ? {} : { from: from as number }), ...(to === undefined ? {} : { to: to as number }) };
}
