// How many input messages ended with each decision, and what compression did when it ran.
import type { Inspection } from "../inspection.js";
import { escapeHtml } from "./escape-html.js";
import { formatCount } from "./format-count.js";

function compressionHtml(inspection: Inspection): string {
  const compression = inspection.compression;
  if (compression === undefined) return "";
  const usage = `about ${formatCount(compression.usageBefore)} → ${formatCount(compression.usageAfter)} tokens`;
  const rows = compression.strategies
    .map(
      (strategy) =>
        `<tr data-strategy="${escapeHtml(strategy.name)}"><td>${escapeHtml(strategy.name)}</td><td>${strategy.ran ? "ran" : "did not run"}</td><td class="num">${formatCount(strategy.itemsAffected)}</td><td class="num">${formatCount(strategy.tokensSaved)}</td></tr>`,
    )
    .join("");
  const table =
    rows === ""
      ? ""
      : `<div class="scroll"><table class="compact"><thead><tr><th>strategy</th><th></th><th class="num">items</th><th class="num">tokens saved</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  return `<h3>Compression</h3>
<p data-figure="compression" data-triggered="${compression.triggered}">${compression.triggered ? "Triggered" : "Not triggered"}: ${usage}.</p>
${table}`;
}

function savingsHtml(inspection: Inspection): string {
  const savings = inspection.savings;
  if (savings.byPlugin.length === 0) return "";
  const parts = savings.byPlugin.map((entry) => `${escapeHtml(entry.plugin)} ${formatCount(entry.tokens)} (${formatCount(entry.items)} item${entry.items === 1 ? "" : "s"})`);
  return `<p data-figure="saved" data-tokens="${savings.total}">Saved ${formatCount(savings.total)} tokens in all, each by the plugin that took them out: ${parts.join(", ")}.</p>`;
}

export function renderDecisionsHtml(inspection: Inspection): string {
  const counts = Object.entries(inspection.decisions)
    .map(([decision, count]) => `<li class="decision-count${count === 0 ? " none" : ""}" data-decision="${decision}" data-count="${count}"><span class="badge d-${decision}">${decision}</span> <b>${formatCount(count)}</b></li>`)
    .join("");
  return `<section id="decisions" aria-labelledby="decisions-heading">
<h2 id="decisions-heading">Decisions</h2>
<p class="note">The final decision about each of the ${formatCount(inspection.inputCount)} input messages.</p>
<ul class="decision-counts">${counts}</ul>
${compressionHtml(inspection)}
${savingsHtml(inspection)}
</section>`;
}
