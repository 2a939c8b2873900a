// The budget as a bar of coloured segments (system prompt, history by kind, tool results, summaries,
// formatting overhead, reserved output, free) with a legend giving each one's tokens, share and items.
import type { BudgetSegment, Inspection } from "../inspection.js";
import { escapeHtml } from "./escape-html.js";
import { formatCount, formatPercent } from "./format-count.js";

const items = (count: number) => (count === 0 ? "" : `${formatCount(count)} item${count === 1 ? "" : "s"}`);

function describe(segment: BudgetSegment, maxTokens: number): string {
  const count = items(segment.items);
  return `${segment.label}: ${formatCount(segment.tokens)} tokens (${formatPercent(segment.tokens, maxTokens)})${count === "" ? "" : `, ${count}`}`;
}

function systemPartsHtml(inspection: Inspection): string {
  if (inspection.systemParts.length === 0) return "";
  const rows = inspection.systemParts
    .map((part) => `<tr><td><code>${escapeHtml(part.id)}</code></td><td>${escapeHtml(part.addedBy)}</td><td class="num">${formatCount(part.tokens)}</td></tr>`)
    .join("");
  return `<h3>System prompt parts</h3>
<div class="scroll"><table class="compact"><thead><tr><th>part</th><th>added by</th><th class="num">tokens</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function renderBudgetHtml(inspection: Inspection): string {
  const { budget } = inspection;
  const data = (segment: BudgetSegment) => `data-kind="${segment.kind}" data-tokens="${segment.tokens}" data-items="${segment.items}"`;
  const bar = budget.segments
    .map((segment, index) => `<div class="segment s${index} k-${segment.kind}" ${data(segment)} title="${escapeHtml(describe(segment, budget.maxTokens))}"></div>`)
    .join("");
  const legend = budget.segments
    .map(
      (segment) => `<tr class="legend-row" ${data(segment)}>
<td><span class="swatch k-${segment.kind}" aria-hidden="true"></span>${escapeHtml(segment.label)}</td>
<td class="num">${formatCount(segment.tokens)}</td>
<td class="num">${formatPercent(segment.tokens, budget.maxTokens)}</td>
<td class="num">${items(segment.items)}</td>
</tr>`,
    )
    .join("\n");
  const summary = `The request uses ${formatCount(budget.used)} of ${formatCount(budget.available)} available tokens; the bar is the whole budget of ${formatCount(budget.maxTokens)} tokens.`;
  return `<section id="budget" aria-labelledby="budget-heading">
<h2 id="budget-heading">Budget</h2>
<p class="note">${summary}</p>
<div class="budget-bar" role="img" aria-label="${escapeHtml(budget.segments.map((segment) => describe(segment, budget.maxTokens)).join("; "))}" data-max-tokens="${budget.maxTokens}" data-available="${budget.available}" data-used="${budget.used}">${bar}</div>
<div class="scroll"><table class="legend compact">
<thead><tr><th>where the tokens go</th><th class="num">tokens</th><th class="num">of budget</th><th class="num">items</th></tr></thead>
<tbody>
${legend}
</tbody></table></div>
${systemPartsHtml(inspection)}
</section>`;
}
