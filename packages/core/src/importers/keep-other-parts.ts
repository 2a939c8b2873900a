// Sets aside the content parts an item has no place for, verbatim and in order, as
// `metadata.extra.parts`, so that converting a message never loses a part the user stored.
import type { ExtraFields } from "./extra-fields.js";

export function keepOtherParts(extra: ExtraFields, parts: ReadonlyArray<unknown>): void {
  if (parts.length > 0) extra.keep("parts", [...parts]);
}
