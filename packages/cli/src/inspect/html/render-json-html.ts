// A JSON value as HTML, laid out exactly as JSON.stringify(value, null, 2) lays it out, except that a
// long string shows its start and a note of how much is left out (see shortenLongText).
import { escapeHtml } from "./escape-html.js";
import { formatCount } from "./format-count.js";
import { shortenLongText } from "./shorten-long-text.js";

/** Counts the strings shortened while rendering, so the page can say the display is not the whole request. */
export interface JsonHtmlTally {
  shortened: number;
}

function stringHtml(text: string, tally: JsonHtmlTally): string {
  const short = shortenLongText(text);
  if (short === undefined) return `<span class="j-string">${escapeHtml(JSON.stringify(text))}</span>`;
  tally.shortened++;
  const head = JSON.stringify(short.head).slice(0, -1);
  return `<span class="j-string">${escapeHtml(head)}<span class="more">… ${formatCount(short.more)} more characters</span>&quot;</span>`;
}

/** `value` must be plain JSON data (see toJsonData); `indent` is the indentation of the line it starts on. */
export function renderJsonHtml(value: unknown, indent: string, tally: JsonHtmlTally): string {
  if (typeof value === "string") return stringHtml(value, tally);
  if (value === null || typeof value !== "object") return `<span class="j-literal">${escapeHtml(JSON.stringify(value) ?? "null")}</span>`;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((element) => inner + renderJsonHtml(element, inner, tally)).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const members = entries.map(([key, member]) => `${inner}${renderJsonKeyHtml(key)}: ${renderJsonHtml(member, inner, tally)}`);
  return `{\n${members.join(",\n")}\n${indent}}`;
}

export function renderJsonKeyHtml(key: string): string {
  return `<span class="j-key">${escapeHtml(JSON.stringify(key))}</span>`;
}

/** The value as JSON.stringify sees it (toJSON applied, undefined members gone), so the display matches what is sent. */
export function toJsonData(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}
