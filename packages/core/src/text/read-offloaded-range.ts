// The reply of a retrieve_context tool: a bounded part of a text that a build cut or cleared, with a
// first line saying which range it holds and how to ask for the next part. Shared by every
// integration that offers the tool (the loops, the AI SDK, LangChain), so the model reads the same
// reply whichever one it runs in. Built only from the numbers (no locale), so the same call always
// gives the same bytes.
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import { RETRIEVE_CONTEXT_TOOL_NAME } from "./cut-marker.js";

/** Characters one retrieve_context call returns at most (about 5,000 tokens of English or code). */
export const DEFAULT_RETRIEVE_MAX_CHARS = 20_000;

export interface ReadOffloadedRangeOptions {
  /** Offset of the first character to read (UTF-16 code units). Default 0. */
  readonly from?: number;
  /** Offset just after the last character to read (exclusive). Default: the end of the text. */
  readonly to?: number;
  /** The most characters returned. Default {@link DEFAULT_RETRIEVE_MAX_CHARS}. */
  readonly maxChars?: number;
}

/**
 * The part of `text` (kept under `handle`) from `from` to `to`, at most `maxChars` characters, after a
 * line saying which range it is and how to read on. Never ends between the two halves of a surrogate
 * pair. A range the text does not have throws an `Error` whose message is written for the model (a
 * tool sends it back as the call's error).
 */
export function readOffloadedRange(text: string, handle: string, options: ReadOffloadedRangeOptions = {}): string {
  const { from, to } = options;
  const maxChars = options.maxChars ?? DEFAULT_RETRIEVE_MAX_CHARS;
  // A bad maxChars is the integration's mistake, not the model's.
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new PluginOptionsError("readOffloadedRange", `maxChars: must be a positive integer, got ${String(maxChars)}`);
  const length = text.length;
  const start = from ?? 0;
  if (start > length) throw new Error(`"from" (${start}) is past the end of ${handle}, which holds ${groupDigits(length)} characters`);
  if (to !== undefined && to < start) throw new Error(`"to" (${to}) is before "from" (${start})`);
  const wanted = Math.min(to ?? length, length);
  let end = Math.min(wanted, start + maxChars);
  // Never end between the two halves of a surrogate pair (an emoji), unless that is all there is.
  if (end < wanted && end > start + 1 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const part = text.slice(start, end);
  const head = `[${RETRIEVE_CONTEXT_TOOL_NAME} ${handle}: characters ${groupDigits(start)} to ${groupDigits(end)} of ${groupDigits(length)} (${groupDigits(end - start)} ${end - start === 1 ? "character" : "characters"}).`;
  let next: string;
  if (to !== undefined && end < wanted) {
    const request = JSON.stringify({ handle, from: end, to: wanted });
    next = ` ${groupDigits(wanted - end)} more characters of the range asked for remain (at most ${groupDigits(maxChars)} per call): call ${RETRIEVE_CONTEXT_TOOL_NAME} with ${request} for the next part.]`;
  } else if (end < length) {
    next = ` The text goes on for ${groupDigits(length - end)} more characters: call ${RETRIEVE_CONTEXT_TOOL_NAME} with ${JSON.stringify({ handle, from: end })} to read on.]`;
  } else {
    next = " This is the end of the text.]";
  }
  return `${head}${next}\n${part}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

// 1234567 → "1,234,567" whatever the locale, so the same call always gives the same bytes.
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
