// The two encodings ctxpipe counts exactly: o200k_base (GPT-4o, GPT-4.1, GPT-5, o-series) and
// cl100k_base (GPT-4, GPT-3.5 Turbo).
/** The encodings counted exactly. */
export const ENCODING_NAMES = ["o200k_base", "cl100k_base"] as const;

export type EncodingName = (typeof ENCODING_NAMES)[number];

export function isEncodingName(value: unknown): value is EncodingName {
  return (ENCODING_NAMES as ReadonlyArray<unknown>).includes(value);
}
