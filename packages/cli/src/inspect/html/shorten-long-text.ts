// Long text is shown by its start and a note of how much is left out, so one huge tool result or
// summary cannot make the page unusable; `ctxpipe build` prints everything whole.
export const LONG_TEXT_LENGTH = 2000;

/** The start of a text longer than LONG_TEXT_LENGTH and how many characters are left out; undefined when it is short. */
export function shortenLongText(text: string): { readonly head: string; readonly more: number } | undefined {
  if (text.length <= LONG_TEXT_LENGTH) return undefined;
  let cut = LONG_TEXT_LENGTH;
  // Never split a surrogate pair: half a character would print as a replacement mark.
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return { head: text.slice(0, cut), more: text.length - cut };
}
