// What a build left out of a request whole (a cut tool output, a cleared result), kept beside the
// conversation so a model can read it back with retrieve_context. Stores keep one record per handle.

/** One offloaded text, as report.offloaded names it, with the time it was stored. */
export interface OffloadedRecord {
  /** The content handle the marker in the request names ("ctx_" and 16 hex digits). */
  readonly handle: string;
  /** The item whose text this is. */
  readonly itemId: string;
  /** The whole original text. */
  readonly text: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

/** An offloaded record without its text: what listOffloaded gives. */
export interface OffloadedInfo {
  readonly handle: string;
  readonly itemId: string;
  /** The text's length in UTF-16 code units (the unit retrieve_context's offsets count in). */
  readonly chars: number;
  readonly createdAt: string;
}
