// The rendered request, pretty-printed, each message an anchor the timeline links to, and the point
// where the prompt cache stops matching the previous turn's request marked in place.
import type { Inspection } from "../inspection.js";
import { escapeHtml } from "./escape-html.js";
import { formatCount } from "./format-count.js";
import { type JsonHtmlTally, renderJsonHtml, renderJsonKeyHtml, toJsonData } from "./render-json-html.js";
import { LONG_TEXT_LENGTH } from "./shorten-long-text.js";

/** The member holding the messages: Gemini calls them contents, the Responses API input. The cache report counts these. */
export function messagesKeyOf(request: unknown): "messages" | "contents" | "input" | undefined {
  if (typeof request !== "object" || request === null) return undefined;
  const record = request as Record<string, unknown>;
  if (Array.isArray(record.messages)) return "messages";
  if (Array.isArray(record.contents)) return "contents";
  if (Array.isArray(record.input)) return "input";
  return undefined;
}

interface CacheMarks {
  /** Messages before this index equal the previous request's. */
  readonly cached: number;
  /** The marker goes before this message (may equal the message count: after the last one). */
  readonly markerAt: number | undefined;
  /** Or before this top-level member. */
  readonly markerKey: string | undefined;
  /** True where the cache breaks; false where the previous request simply ends. */
  readonly breaks: boolean;
  readonly note: string;
}

/** ", 1,234 tokens" when the renderer counted the reusable prefix. */
const tokensNote = (cache: Inspection["cache"]) => (cache.reusableTokens === undefined ? "" : `, ${formatCount(cache.reusableTokens)} tokens`);

function cacheMarksOf(inspection: Inspection, request: Record<string, unknown>): CacheMarks | undefined {
  const cache = inspection.cache;
  if (!cache.compared) return undefined;
  if (cache.breaksAt === "messages") {
    const reused = cache.sameMessages === 0 ? "no message is reused" : `messages 0 to ${cache.sameMessages - 1} are reused`;
    return {
      cached: cache.sameMessages,
      markerAt: cache.sameMessages,
      markerKey: undefined,
      breaks: true,
      note: `▼ The prompt cache breaks here: message ${cache.sameMessages} is the first that differs from the previous turn's request (${reused}${tokensNote(cache)}).`,
    };
  }
  if (cache.breaksAt === undefined) {
    const reused = cache.reusableTokens === undefined ? "" : ` (${formatCount(cache.reusableTokens)} tokens)`;
    return { cached: cache.sameMessages, markerAt: cache.previousMessages, markerKey: undefined, breaks: false, note: `▲ The previous turn's request ends here: all of it is a prefix of this one, so a prompt cache reuses it${reused}.` };
  }
  const part = cache.breaksAt === "tools" ? "tool definitions" : "system prompt";
  const key = cache.breaksAt === "tools" ? "tools" : ["system", "systemInstruction", "instructions"].find((name) => name in request);
  return { cached: 0, markerAt: undefined, markerKey: key ?? "", breaks: true, note: `▼ The prompt cache breaks here: the ${part} differ from the previous turn's request, so nothing is reused.` };
}

/** Red where the cache breaks, green where the reused prefix simply ends. */
const marker = (marks: CacheMarks) => `<span class="cache-marker ${marks.breaks ? "breaks" : "prefix-end"}" id="cache-marker" role="note">${escapeHtml(marks.note)}</span>`;

function messagesHtml(messages: ReadonlyArray<unknown>, marks: CacheMarks | undefined, tally: JsonHtmlTally): string {
  if (messages.length === 0) return marks?.markerAt === 0 ? `[${marker(marks)}]` : "[]";
  const parts = messages.map((message, index) => {
    const before = marks?.markerAt === index ? marker(marks) : "";
    const classes = ["message", ...(marks !== undefined && index < marks.cached ? ["cached"] : []), ...(marks?.markerAt === index && marks.breaks ? ["cache-break-at"] : [])];
    const comma = index < messages.length - 1 ? "," : "";
    return `${before}<span class="${classes.join(" ")}" id="message-${index}" data-message-index="${index}" data-label="message ${index}">    ${renderJsonHtml(message, "    ", tally)}${comma}</span>`;
  });
  const after = marks?.markerAt === messages.length ? marker(marks) : "";
  return `[${parts.join("")}${after}  ]`;
}

function requestBodyHtml(inspection: Inspection, tally: JsonHtmlTally): string {
  const request = toJsonData(inspection.request);
  if (typeof request !== "object" || request === null || Array.isArray(request)) return renderJsonHtml(request ?? null, "", tally);
  const record = request as Record<string, unknown>;
  const messagesKey = messagesKeyOf(record);
  const marks = cacheMarksOf(inspection, record);
  const keys = Object.keys(record);
  const members = keys.map((key, index) => {
    const value = record[key];
    const html = key === messagesKey ? messagesHtml(value as unknown[], marks, tally) : renderJsonHtml(value, "  ", tally);
    const before = marks?.markerKey === key ? marker(marks) : "";
    const breaks = marks?.markerKey === key ? " cache-break-at" : "";
    return `${before}<span class="member${breaks}" data-key="${escapeHtml(key)}">  ${renderJsonKeyHtml(key)}: ${html}${index < keys.length - 1 ? "," : ""}</span>`;
  });
  // A break at a part the request no longer has (e.g. the tools were removed): mark the top.
  const top = marks !== undefined && marks.markerKey !== undefined && !keys.includes(marks.markerKey) ? marker(marks) : "";
  return keys.length === 0 ? "{}" : `{${top}${members.join("")}}`;
}

export function renderRequestHtml(inspection: Inspection): string {
  const tally: JsonHtmlTally = { shortened: 0 };
  const body = requestBodyHtml(inspection, tally);
  const key = messagesKeyOf(inspection.request);
  const count = key === undefined ? "" : ` with ${formatCount((inspection.request as Record<string, unknown[]>)[key]!.length)} messages`;
  const shortened =
    tally.shortened === 0
      ? ""
      : ` ${formatCount(tally.shortened)} string${tally.shortened === 1 ? " is" : "s are"} longer than ${formatCount(LONG_TEXT_LENGTH)} characters and shortened here.`;
  return `<section id="request" aria-labelledby="request-heading">
<h2 id="request-heading">Rendered request</h2>
<p class="note" data-shortened="${tally.shortened}">The body sent to ${escapeHtml(inspection.provider)}${count}, laid out as <code>ctxpipe build --pretty</code> prints it.${shortened} <code>ctxpipe build</code> prints the request whole.</p>
<pre class="json" tabindex="0">${body}</pre>
</section>`;
}
