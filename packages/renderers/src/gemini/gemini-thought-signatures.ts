// Gemini 3 thought signatures (GEM-018): Gemini 3 rejects a replayed function call of the current turn
// that lost its thoughtSignature. Calls that never had one (made by another provider, or stored before
// signatures were kept) carry Google's documented sentinel, which tells the API to skip the check.

/** The value Google documents for calls that have no signature of their own. */
export const SKIP_THOUGHT_SIGNATURE_VALIDATOR = "skip_thought_signature_validator";

/**
 * "auto": sign unsigned calls with the sentinel for Gemini 3 models only; "always": for every model;
 * "never": send only the signatures the calls were stored with.
 */
export type ThoughtSignatureMode = "auto" | "always" | "never";

/** Whether the model is a Gemini 3 one; accepts "models/…" and Vertex resource names too. */
export function isGemini3Model(model: string | undefined): boolean {
  if (model === undefined) return false;
  return (model.split("/").at(-1) ?? "").startsWith("gemini-3");
}

/** Whether calls without a stored signature get the sentinel, for this mode and model. */
export function signsUnsignedCalls(mode: ThoughtSignatureMode, model: string | undefined): boolean {
  return mode === "always" || (mode === "auto" && isGemini3Model(model));
}
