// The summaries: where each came from, whether it was sent, the messages it stands in for (linked to
// their timeline rows) and the tokens before and after.
import type { Inspection, SummaryView } from "../inspection.js";
import { escapeHtml } from "./escape-html.js";
import { formatCount } from "./format-count.js";
import { rowAnchors } from "./row-anchors.js";
import { shortenLongText } from "./shorten-long-text.js";

const SOURCES: Readonly<Record<SummaryView["source"], string>> = {
  input: "a summary message of the conversation",
  record: "a persisted summary record",
  new: "made in this build",
};

function textHtml(text: string): string {
  const short = shortenLongText(text);
  if (short === undefined) return escapeHtml(text);
  return `${escapeHtml(short.head)}<span class="more">… ${formatCount(short.more)} more characters</span>`;
}

function summaryHtml(summary: SummaryView, anchors: ReadonlyMap<string, string>): string {
  const covered = summary.coveredIds
    .map((id) => {
      const anchor = anchors.get(id);
      const code = `<code>${escapeHtml(id)}</code>`;
      return `<li data-covered-id="${escapeHtml(id)}">${anchor === undefined ? code : `<a href="#${anchor}">${code}</a>`}</li>`;
    })
    .join("");
  const count = summary.coveredIds.length;
  const own = anchors.get(summary.id);
  const saved = summary.coveredTokens - summary.tokens;
  return `<article class="summary" data-summary-id="${escapeHtml(summary.id)}" data-source="${summary.source}" data-sent="${summary.sent}" data-tokens="${summary.tokens}" data-covered-tokens="${summary.coveredTokens}">
<h3><code>${escapeHtml(summary.id)}</code> <span class="tag">${SOURCES[summary.source]}</span> <span class="tag ${summary.sent ? "sent" : "not-sent"}">${summary.sent ? "sent" : "not sent"}</span>${own === undefined ? "" : ` <a class="row-link" href="#${own}">its timeline row</a>`}</h3>
<p class="figures">Stands in for <b>${formatCount(count)}</b> message${count === 1 ? "" : "s"} of <b>${formatCount(summary.coveredTokens)}</b> tokens, in <b>${formatCount(summary.tokens)}</b> tokens${saved > 0 ? ` (${formatCount(saved)} fewer)` : ""}.</p>
${summary.note === undefined ? "" : `<p class="summary-note">${escapeHtml(summary.note)}</p>\n`}${count === 0 ? "" : `<ul class="covered" aria-label="covered messages">${covered}</ul>`}
<div class="summary-text">${textHtml(summary.text)}</div>
</article>`;
}

export function renderSummariesHtml(inspection: Inspection): string {
  const anchors = rowAnchors(inspection.timeline);
  const body = inspection.summaries.length === 0 ? `<p class="note">No summary was sent or made in this build.</p>` : inspection.summaries.map((summary) => summaryHtml(summary, anchors)).join("\n");
  return `<section id="summaries" aria-labelledby="summaries-heading">
<h2 id="summaries-heading">Summaries</h2>
${body}
</section>`;
}
