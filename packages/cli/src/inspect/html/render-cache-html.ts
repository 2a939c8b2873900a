// Where this request stops matching the previous turn's, in words, with a link to the marker in the
// rendered request; or why nothing was compared.
import type { Inspection } from "../inspection.js";
import { describeCache } from "../render-table.js";
import { escapeHtml } from "./escape-html.js";
import { formatCount } from "./format-count.js";

function cacheBarHtml(inspection: Inspection): string {
  const { cache } = inspection;
  if (!cache.compared) return "";
  const reused = cache.breaksAt === "tools" || cache.breaksAt === "system" ? 0 : cache.sameMessages;
  return `<p class="cache-figures"><span class="tag sent">${formatCount(reused)} message${reused === 1 ? "" : "s"} reused</span> of the previous turn's ${formatCount(cache.previousMessages)} · <a href="#cache-marker">show in the request</a></p>`;
}

export function renderCacheHtml(inspection: Inspection): string {
  const { cache } = inspection;
  const breaksAt = cache.breaksAt ?? (cache.compared ? "nowhere" : "not-compared");
  return `<section id="cache" aria-labelledby="cache-heading">
<h2 id="cache-heading">Prompt cache</h2>
<p class="cache-text" data-compared="${cache.compared}" data-breaks-at="${breaksAt}" data-same-messages="${cache.sameMessages}" data-previous-messages="${cache.previousMessages}">${escapeHtml(capitalized(describeCache(inspection)))}.</p>
${cacheBarHtml(inspection)}
</section>`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
