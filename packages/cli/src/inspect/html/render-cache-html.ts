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
  const tokens =
    cache.reusableTokens === undefined || cache.previousTokens === undefined
      ? ""
      : ` · <span class="tag sent">${formatCount(cache.reusableTokens)} token${cache.reusableTokens === 1 ? "" : "s"} reusable</span> of its ${formatCount(cache.previousTokens)}`;
  return `<p class="cache-figures"><span class="tag sent">${formatCount(reused)} message${reused === 1 ? "" : "s"} reused</span> of the previous turn's ${formatCount(cache.previousMessages)}${tokens} · <a href="#cache-marker">show in the request</a></p>`;
}

/** The renderer's cache breakpoints (Anthropic), each linked to the message it marks. */
function breakpointsHtml(inspection: Inspection): string {
  const breakpoints = inspection.cache.breakpoints;
  if (breakpoints === undefined || breakpoints.length === 0) return "";
  const items = breakpoints.map((breakpoint) => {
    const where =
      breakpoint.part === "messages" ? `at the end of <a href="#message-${breakpoint.messageIndex}">message ${breakpoint.messageIndex}</a>` : breakpoint.part === "tools" ? "after the tool definitions" : "after the system prompt";
    const state = breakpoint.placed ? "placed" : `not placed: ${escapeHtml(breakpoint.reason ?? "no reason given")}`;
    return `<li class="cache-breakpoint" data-part="${breakpoint.part}" data-placed="${breakpoint.placed}" data-prefix-tokens="${breakpoint.prefixTokens}">${where}, ${formatCount(breakpoint.prefixTokens)} tokens up to it: ${state}</li>`;
  });
  return `<p class="cache-breakpoints-heading">Breakpoints (cache_control) the renderer considered:</p>\n<ul class="cache-breakpoints">${items.join("")}</ul>`;
}

export function renderCacheHtml(inspection: Inspection): string {
  const { cache } = inspection;
  const breaksAt = cache.breaksAt ?? (cache.compared ? "nowhere" : "not-compared");
  return `<section id="cache" aria-labelledby="cache-heading">
<h2 id="cache-heading">Prompt cache</h2>
<p class="cache-text" data-compared="${cache.compared}" data-breaks-at="${breaksAt}" data-same-messages="${cache.sameMessages}" data-previous-messages="${cache.previousMessages}"${tokenAttributes(cache)}>${escapeHtml(capitalized(describeCache(inspection)))}.</p>
${cacheBarHtml(inspection)}${breakpointsHtml(inspection)}
</section>`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const tokenAttributes = (cache: Inspection["cache"]) =>
  cache.reusableTokens === undefined || cache.previousTokens === undefined ? "" : ` data-reusable-tokens="${cache.reusableTokens}" data-previous-tokens="${cache.previousTokens}"`;
