// What a model is told about retrieve_context, the same in every integration that offers it, so its
// definition (and a provider's prompt cache of it) does not depend on where the agent runs.

/** The tool's description, as the model reads it. */
export const RETRIEVE_CONTEXT_DESCRIPTION =
  "Reads back text that was cut or cleared from this conversation to fit the context window. A marker or placeholder in the conversation names its handle (ctx_…) and the range that was cut: pass them as given. " +
  "Offsets count UTF-16 characters from 0; `to` is exclusive. One call returns a part of limited length; the reply says which range it holds and how to ask for the next part.";

/**
 * The tool's parameters as a JSON schema: `handle` (required), `from` and `to`. Frozen all the way
 * down: one integration changing it would change every other's definition.
 */
export const RETRIEVE_CONTEXT_PARAMETERS = Object.freeze({
  type: "object",
  properties: Object.freeze({
    handle: Object.freeze({ type: "string", description: "The handle a marker or placeholder names, e.g. ctx_0123456789abcdef." }),
    from: Object.freeze({ type: "integer", minimum: 0, description: "Offset of the first character to read. Default 0." }),
    to: Object.freeze({ type: "integer", minimum: 0, description: "Offset just after the last character to read. Default: as far as one call returns, or the end." }),
  }),
  required: Object.freeze(["handle"]),
  additionalProperties: false,
} as const);
