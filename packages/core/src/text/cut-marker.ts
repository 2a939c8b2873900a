// The text put where cutMiddle cut: how much was cut and how to read it back. Built only from the
// cut's own numbers (no locale, no clock), so the same cut always gives the same bytes and a
// provider's prompt cache stays warm across builds.
import type { TextCut } from "./text-cut.js";

/** The name of the tool the marker tells the model to call to read a cut range back. */
export const RETRIEVE_CONTEXT_TOOL_NAME = "retrieve_context";

/** The marker put where the text was cut. Same cut → same marker (cache-stable). */
export function cutMarker(cut: TextCut): string {
  const request = JSON.stringify({ handle: cut.handle, from: cut.from, to: cut.to });
  return (
    `[… ${groupDigits(cut.tokens)} ${cut.tokens === 1 ? "token" : "tokens"} (${groupDigits(cut.chars)} ${cut.chars === 1 ? "character" : "characters"}) cut here. ` +
    `The whole text is kept as ${cut.handle}: call ${RETRIEVE_CONTEXT_TOOL_NAME} with ${request} to read them.]`
  );
}

// 1234567 → "1,234,567" whatever the locale (toLocaleString would depend on the runtime's locale).
function groupDigits(value: number): string {
  const digits = String(value);
  let grouped = "";
  for (let index = 0; index < digits.length; index++) {
    if (index > 0 && (digits.length - index) % 3 === 0) grouped += ",";
    grouped += digits[index];
  }
  return grouped;
}
