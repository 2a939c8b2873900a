// The timeline: one row per item, in input order with added items where they were sent, giving its
// decision, the stage and plugin that made it, the tokens, the reason, a preview and the item's history.
// Checkboxes above it hide rows by decision (CSS only, see PAGE_STYLE).
import type { Decision, ReportEvent } from "@ctxpipe/core";
import type { Inspection, TimelineRow } from "../inspection.js";
import { DECISIONS } from "../inspection-of.js";
import { escapeHtml } from "./escape-html.js";
import { formatCount } from "./format-count.js";
import { messagesKeyOf } from "./render-request-html.js";
import { rowAnchors } from "./row-anchors.js";

/** The decisions the filter knows, in the order the page lists them; PAGE_STYLE has a rule for each. */
export const TIMELINE_DECISIONS: ReadonlyArray<Decision> = DECISIONS;

function idLink(id: string, anchors: ReadonlyMap<string, string>): string {
  const anchor = anchors.get(id);
  return anchor === undefined ? `<code>${escapeHtml(id)}</code>` : `<a href="#${anchor}"><code>${escapeHtml(id)}</code></a>`;
}

function historyHtml(history: ReadonlyArray<ReportEvent>, anchors: ReadonlyMap<string, string>): string {
  if (history.length === 0) return "";
  const events = history
    .map((event) => {
      const related = event.relatedId === undefined ? "" : ` → ${idLink(event.relatedId, anchors)}`;
      return `<li><span class="badge d-${event.decision}">${event.decision}</span>${related} <span class="muted">${escapeHtml(event.stage)} · ${escapeHtml(event.plugin)}</span>: ${escapeHtml(event.reason)}</li>`;
    })
    .join("");
  return `<details class="history"><summary>history: ${history.length} event${history.length === 1 ? "" : "s"}</summary><ol>${events}</ol></details>`;
}

function rowHtml(row: TimelineRow, index: number, anchors: ReadonlyMap<string, string>, messageCount: number): string {
  const added = row.inputIndex === undefined;
  const where = added ? `<span class="added" title="synthesized by a plugin: not in the input">added</span>` : escapeHtml(row.location ?? `index ${row.inputIndex}`);
  const related = row.relatedId === undefined ? "" : `<div class="related">→ ${idLink(row.relatedId, anchors)}</div>`;
  const message =
    row.messageIndex !== undefined && row.messageIndex < messageCount ? ` <a class="message-link" href="#message-${row.messageIndex}">↳ message ${row.messageIndex}</a>` : "";
  const split =
    row.savedBy.length > 1 ? row.savedBy.map((credit) => `<div class="muted saved-by">${formatCount(credit.tokens)} ${escapeHtml(credit.plugin)}</div>`).join("") : "";
  const saved = row.tokensSaved === undefined ? "" : `${formatCount(row.tokensSaved)}${split}`;
  const kind = row.role === row.type ? escapeHtml(row.type) : `${escapeHtml(row.type)} <span class="muted">(${escapeHtml(row.role)})</span>`;
  return `<tr id="row-${index}" class="row${added ? " synthesized" : ""}" data-id="${escapeHtml(row.id)}" data-decision="${row.decision}" data-tokens="${row.tokens}">
<td class="item"><code class="id" title="${escapeHtml(row.id)}">${escapeHtml(row.id)}</code><div class="where">${where} · ${kind}</div></td>
<td class="decision"><span class="badge d-${row.decision}">${row.decision}</span>${related}</td>
<td class="by">${escapeHtml(row.stage)}<div class="muted">${escapeHtml(row.plugin)}</div></td>
<td class="num">${formatCount(row.tokens)}</td>
<td class="num">${saved}</td>
<td class="what"><div class="reason">${escapeHtml(row.reason)}${message}</div>${row.preview === "" ? "" : `<div class="preview">${escapeHtml(row.preview)}</div>`}${historyHtml(row.history, anchors)}</td>
</tr>`;
}

function filterHtml(timeline: ReadonlyArray<TimelineRow>): string {
  const counts = new Map<Decision, number>();
  for (const row of timeline) counts.set(row.decision, (counts.get(row.decision) ?? 0) + 1);
  const boxes = TIMELINE_DECISIONS.filter((decision) => counts.has(decision))
    .map(
      (decision) =>
        `<label class="filter-option"><input type="checkbox" id="show-${decision}" data-decision="${decision}" checked> <span class="badge d-${decision}">${decision}</span> ${formatCount(counts.get(decision)!)}</label>`,
    )
    .join("\n");
  return `<fieldset class="filter"><legend>Show rows</legend>
${boxes}
</fieldset>`;
}

export function renderTimelineHtml(inspection: Inspection): string {
  const anchors = rowAnchors(inspection.timeline);
  const key = messagesKeyOf(inspection.request);
  const messageCount = key === undefined ? 0 : (inspection.request as Record<string, unknown[]>)[key]!.length;
  const rows = inspection.timeline.map((row, index) => rowHtml(row, index, anchors, messageCount)).join("\n");
  const added = inspection.timeline.filter((row) => row.inputIndex === undefined).length;
  return `<section id="timeline" aria-labelledby="timeline-heading">
<h2 id="timeline-heading">Timeline</h2>
<p class="note">${formatCount(inspection.timeline.length)} items: the input in order${added === 0 ? "" : `, and ${formatCount(added)} added by plugins (marked <span class="added">added</span>) where they were sent`}. Tokens are what an item costs as sent (or would have cost); saved is what the decisions took out, split by plugin when several took part.</p>
${filterHtml(inspection.timeline)}
<div class="scroll"><table class="timeline">
<thead><tr><th>item</th><th>decision</th><th>stage / plugin</th><th class="num">tokens</th><th class="num">saved</th><th>reason, preview and history</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
</section>`;
}
