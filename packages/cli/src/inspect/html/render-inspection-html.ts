// `ctxpipe inspect --html`: the inspection as one self-contained page. Inline CSS only, no script, and
// a Content-Security-Policy that forbids every fetch, so the page works offline and cannot leak the
// conversation. Everything from the data is escaped; the same inspection always gives the same bytes.
import type { Inspection } from "../inspection.js";
import { budgetBarStyle } from "./budget-bar-style.js";
import { contentSecurityPolicy } from "./content-security-policy.js";
import { escapeHtml } from "./escape-html.js";
import { PAGE_STYLE } from "./page-style.js";
import { renderBudgetHtml } from "./render-budget-html.js";
import { renderCacheHtml } from "./render-cache-html.js";
import { renderDecisionsHtml } from "./render-decisions-html.js";
import { renderHeaderHtml } from "./render-header-html.js";
import { renderNoticesHtml } from "./render-notices-html.js";
import { renderRequestHtml } from "./render-request-html.js";
import { renderSummariesHtml } from "./render-summaries-html.js";
import { renderTimelineHtml } from "./render-timeline-html.js";

const SECTIONS: ReadonlyArray<readonly [anchor: string, name: string]> = [
  ["budget", "Budget"],
  ["decisions", "Decisions"],
  ["timeline", "Timeline"],
  ["summaries", "Summaries"],
  ["cache", "Prompt cache"],
  ["request", "Request"],
];

export function renderInspectionHtml(inspection: Inspection): string {
  const style = `${PAGE_STYLE}${budgetBarStyle(inspection.budget)}\n`;
  const nav = SECTIONS.map(([anchor, name]) => `<li><a href="#${anchor}">${name}</a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(style)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>ctxpipe inspect: ${escapeHtml(inspection.title)}</title>
<style>${style}</style>
</head>
<body>
${renderHeaderHtml(inspection)}
<nav class="page-nav" aria-label="Sections"><ul>${nav}</ul></nav>
<main>
${renderNoticesHtml(inspection)}
${renderBudgetHtml(inspection)}
${renderDecisionsHtml(inspection)}
${renderTimelineHtml(inspection)}
${renderSummariesHtml(inspection)}
${renderCacheHtml(inspection)}
${renderRequestHtml(inspection)}
</main>
<footer>Written by <code>ctxpipe inspect</code>. This page is self-contained: it loads nothing and runs no script.</footer>
</body>
</html>
`;
}
