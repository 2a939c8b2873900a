// The notice to the model: one short system part saying what compression left out of this request
// and how to read it back. Built only from the build's decisions, which stay put between compression
// steps, so consecutive builds send the same text and the provider's prompt cache keeps its prefix.

/** The id of the notice's system part (report.systemParts lists it). */
export const COMPRESSION_NOTICE_ID = "compression-notice";

/** After every part of the application's own prompt, so that a changed notice leaves their prefix cached. */
export const COMPRESSION_NOTICE_ORDER = 1_000_000;

/** How many items one kind of decision touched, and the tokens it took out of them. */
export interface NoticeCount {
  readonly items: number;
  readonly tokens: number;
}

/** What compression did in one build, for the notice's text. */
export interface CompressionNoticeSummary {
  /** Old tool results replaced by a placeholder. */
  readonly cleared: NoticeCount;
  /** Tool results (or texts) cut to their head and tail. */
  readonly truncated: NoticeCount;
  /** Messages replaced by a summary. */
  readonly summarized: NoticeCount;
  /** Messages left out whole. */
  readonly dropped: NoticeCount;
  /** Whether something left out is kept whole under a handle the model can ask retrieve_context for. */
  readonly offloaded: boolean;
}

export type CompressionNoticeOption = boolean | { readonly text?: (summary: CompressionNoticeSummary) => string };

/**
 * The default notice, e.g. "Context note: to fit the context window, 3 old tool results were cleared
 * (12,340 tokens) and long tool results were cut to their start and end. Read cut or cleared text
 * back with retrieve_context and the handle its marker names." Undefined when nothing was left out.
 *
 * Cut results are not counted: each new giant output would change the text (and the whole cached
 * prompt after it) on the turn it arrives; each marker says how much it cut. Cleared, summarized and
 * dropped items only change at compression steps.
 */
export function compressionNoticeText(summary: CompressionNoticeSummary): string | undefined {
  const parts: string[] = [];
  if (summary.cleared.items > 0) parts.push(`${counted(summary.cleared.items, "old tool result was", "old tool results were")} cleared (${tokens(summary.cleared.tokens)})`);
  if (summary.truncated.items > 0) parts.push("long tool results were cut to their start and end");
  if (summary.summarized.items > 0) parts.push(`${counted(summary.summarized.items, "earlier message was", "earlier messages were")} summarized (${tokens(summary.summarized.tokens)})`);
  if (summary.dropped.items > 0) parts.push(`${counted(summary.dropped.items, "earlier message was", "earlier messages were")} left out (${tokens(summary.dropped.tokens)})`);
  if (parts.length === 0) return undefined;
  const listed = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)!}`;
  const readBack = summary.offloaded ? " Read cut or cleared text back with retrieve_context and the handle its marker names." : "";
  return `Context note: to fit the context window, ${listed}.${readBack}`;
}

function counted(count: number, one: string, many: string): string {
  return `${groupDigits(count)} ${count === 1 ? one : many}`;
}

function tokens(count: number): string {
  return `${groupDigits(count)} ${count === 1 ? "token" : "tokens"}`;
}

// 12340 → "12,340" whatever the runtime's locale (toLocaleString would make the text machine-dependent).
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
