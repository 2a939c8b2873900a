// The page's header: what was inspected, for which provider and model, and the request's size against
// the budget it had to fit.
import type { Inspection } from "../inspection.js";
import { escapeHtml } from "./escape-html.js";
import { formatCount, formatPercent } from "./format-count.js";

const exactness = (exact: boolean) => (exact ? "exact" : "estimated");

function fact(name: string, figure: string, valueHtml: string, value?: number): string {
  const data = value === undefined ? "" : ` data-value="${value}"`;
  return `<div class="fact"><dt>${name}</dt><dd data-figure="${figure}"${data}>${valueHtml}</dd></div>`;
}

export function renderHeaderHtml(inspection: Inspection): string {
  const { budget } = inspection;
  return `<header class="page-header">
<p class="kicker">ctxpipe inspect</p>
<h1 data-figure="title">${escapeHtml(inspection.title)}</h1>
<dl class="facts">
${fact("Request", "token-count", `${formatCount(inspection.tokenCount)} tokens <span class="muted">(${exactness(inspection.tokenCountExact)})</span>`, inspection.tokenCount)}
${fact("Available", "available", `${formatCount(budget.available)} tokens <span class="muted">(${formatPercent(inspection.tokenCount, budget.available)} used)</span>`, budget.available)}
${fact("Budget", "max-tokens", `${formatCount(budget.maxTokens)} <span class="muted">− ${formatCount(budget.reserveOutputTokens)} reserved for the answer</span><br><span class="muted" data-figure="budget-origin">${escapeHtml(budget.origin)}</span>`, budget.maxTokens)}
${fact("Messages", "messages", `${formatCount(inspection.inputCount)} in → ${formatCount(inspection.outputCount)} sent`)}
${fact("Provider", "provider", escapeHtml(inspection.provider))}
${fact("Model", "model", escapeHtml(inspection.model))}
${fact("Tokenizer", "tokenizer", `${escapeHtml(inspection.tokenizer.name)} <span class="muted">(${exactness(inspection.tokenizer.exact)})</span>`)}
</dl>
</header>`;
}
