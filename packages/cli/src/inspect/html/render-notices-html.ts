// Warnings about the input and rule violations of the request, at the top of the page when there are any.
import type { Inspection } from "../inspection.js";
import { escapeHtml } from "./escape-html.js";

function list(kind: "violation" | "warning", heading: string, messages: ReadonlyArray<string>): string {
  if (messages.length === 0) return "";
  return `<div class="notice ${kind}s" role="${kind === "violation" ? "alert" : "note"}">
<h2>${heading}</h2>
<ul>${messages.map((message) => `<li class="${kind}">${escapeHtml(message)}</li>`).join("")}</ul>
</div>`;
}

export function renderNoticesHtml(inspection: Inspection): string {
  const html = list("violation", "Rule violations in the request", inspection.violations) + list("warning", "Warnings", inspection.warnings);
  return html === "" ? "" : `<section id="notices" aria-label="Warnings and violations">${html}</section>`;
}
