// The page's style sheet: light, system fonts, readable from a phone to a wide screen. Colours are
// chosen for contrast on white; decisions and budget kinds each have one. The timeline filter is pure
// CSS: an unchecked "show" box hides the rows with its decision.
import type { Decision } from "@ctxpipe/core";
import type { BudgetSegmentKind } from "../inspection.js";
import { TIMELINE_DECISIONS } from "./render-timeline-html.js";

const DECISION_COLOURS: Readonly<Record<Decision, readonly [text: string, background: string]>> = {
  kept: ["#116329", "#dafbe1"],
  merged: ["#0550ae", "#ddf4ff"],
  repaired: ["#0b6470", "#d2f6f8"],
  synthesized: ["#6639ba", "#f3eaff"],
  cleared: ["#7d4e00", "#fff1c2"],
  truncated: ["#953800", "#ffe7d1"],
  summarized: ["#99286e", "#ffe9f4"],
  dropped: ["#a40e26", "#ffe5e3"],
};

const SEGMENT_FILLS: Readonly<Record<BudgetSegmentKind, string>> = {
  system: "#8250df",
  user: "#0969da",
  assistant: "#1a7f37",
  "tool-results": "#d18b00",
  summaries: "#bf3989",
  other: "#6e7781",
  overhead: "#a8b3bf",
  "reserved-output": "repeating-linear-gradient(135deg, #57606a 0 5px, #8c959f 5px 10px)",
  free: "#f3f5f8",
};

const decisionRules = TIMELINE_DECISIONS.map((decision) => {
  const [text, background] = DECISION_COLOURS[decision]!;
  return `.d-${decision}{color:${text};background:${background}}
body:has(#show-${decision}:not(:checked)) .timeline tr[data-decision="${decision}"]{display:none}`;
}).join("\n");

const segmentRules = Object.entries(SEGMENT_FILLS)
  .map(([kind, fill]) => `.k-${kind}{background:${fill}}`)
  .join("\n");

export const PAGE_STYLE = `:root{color-scheme:light;--text:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--text);background:#fff}
code,pre,.preview,.summary-text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:13px}
a{color:var(--accent)}
.page-header,main,.page-nav,footer{max-width:1240px;margin:0 auto;padding:0 24px}
.page-header{padding-top:24px}
.kicker{margin:0;color:var(--muted);font-size:13px;letter-spacing:.04em;text-transform:uppercase}
h1{margin:2px 0 16px;font-size:24px;line-height:1.25;overflow-wrap:anywhere}
h2{margin:0 0 8px;font-size:19px}
h3{margin:16px 0 6px;font-size:15px}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:0}
.fact{border:1px solid var(--line);border-radius:8px;padding:8px 12px;background:var(--soft)}
.fact dt{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.fact dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.muted{color:var(--muted);font-weight:400}
.page-nav{position:sticky;top:0;z-index:1;background:rgba(255,255,255,.96);border-bottom:1px solid var(--line);margin-top:16px}
.page-nav ul{display:flex;flex-wrap:wrap;gap:4px 18px;list-style:none;margin:0;padding:8px 0}
.page-nav a{text-decoration:none;font-weight:600}
section{padding:20px 0;border-bottom:1px solid var(--line)}
section:last-child{border-bottom:0}
.note{margin:0 0 12px;color:var(--muted)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:6px 10px;border-bottom:1px solid var(--line)}
th{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.03em;white-space:nowrap;background:var(--soft)}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.compact{width:auto;min-width:min(640px,100%)}
.budget-bar{display:flex;height:34px;border:1px solid #8c959f;border-radius:6px;overflow:hidden;margin:4px 0 12px;background:#f3f5f8}
.budget-bar .segment{flex:none;height:100%}
.budget-bar .segment+.segment{box-shadow:inset 1px 0 0 rgba(255,255,255,.7)}
.budget-bar .segment[data-tokens="0"]{display:none}
.swatch{display:inline-block;width:14px;height:14px;border-radius:3px;margin-right:8px;vertical-align:-2px;border:1px solid rgba(0,0,0,.25)}
${segmentRules}
.badge{display:inline-block;padding:0 8px;border-radius:999px;font-size:12px;font-weight:600;line-height:20px;white-space:nowrap}
${decisionRules}
.decision-counts{display:flex;flex-wrap:wrap;gap:8px 20px;list-style:none;margin:0;padding:0}
.decision-count b{font-variant-numeric:tabular-nums}
.decision-count.none{opacity:.55}
.filter{display:flex;flex-wrap:wrap;gap:6px 16px;border:1px solid var(--line);border-radius:8px;margin:0 0 12px;padding:6px 12px 8px}
.filter legend{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.03em;padding:0 4px}
.filter-option{cursor:pointer;white-space:nowrap}
.timeline{min-width:760px}
.timeline td.item{width:220px;max-width:260px}
.timeline code.id{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.timeline .where{font-size:13px;color:var(--muted);white-space:nowrap}
.timeline td.decision{width:190px}
.related code{font-size:12px}
.timeline td.by{width:190px;overflow-wrap:anywhere}
.related{font-size:13px;overflow-wrap:anywhere;margin-top:2px}
.timeline tr.synthesized{background:#faf7ff}
.timeline tr:target{outline:2px solid var(--accent);outline-offset:-2px;background:#eef6ff}
section,tr,.message,.member,.cache-marker{scroll-margin-top:52px}
.added{display:inline-block;padding:0 6px;border:1px dashed #8250df;border-radius:4px;color:#6639ba;font-size:12px}
.reason{overflow-wrap:anywhere}
.message-link{margin-left:6px;font-size:13px;white-space:nowrap}
.preview{margin-top:4px;padding:4px 8px;background:var(--soft);border-left:3px solid var(--line);white-space:pre-wrap;overflow-wrap:anywhere;color:#424a53}
.history{margin-top:4px;font-size:13px}
.history summary{cursor:pointer;color:var(--muted)}
.history ol{margin:4px 0 0;padding-left:20px}
.history li{margin:2px 0;overflow-wrap:anywhere}
.summary{border:1px solid var(--line);border-radius:8px;padding:4px 14px 12px;margin:0 0 12px}
.summary h3{display:flex;flex-wrap:wrap;align-items:center;gap:6px 10px}
.tag{display:inline-block;padding:0 8px;border-radius:4px;background:var(--soft);border:1px solid var(--line);font-size:12px;font-weight:500}
.tag.sent{background:#dafbe1;border-color:#aceebb;color:#116329}
.tag.not-sent{background:#ffe5e3;border-color:#ffc1bc;color:#a40e26}
.row-link{font-size:13px;font-weight:400}
.figures{margin:4px 0}
.summary-note{margin:4px 0;color:var(--muted)}
.covered{display:flex;flex-wrap:wrap;gap:4px 10px;list-style:none;margin:4px 0 8px;padding:0}
.summary-text{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--soft);border-radius:6px;padding:8px 10px;max-height:320px;overflow:auto}
.more{color:#7d4e00;background:#fff1c2;border-radius:3px;padding:0 4px;font-style:italic}
.cache-figures{margin:0}
pre.json{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;padding:12px;background:var(--soft);border:1px solid var(--line);border-radius:8px;max-height:80vh;overflow:auto;line-height:1.45}
pre.json .member,pre.json .message{display:block;margin:0 -12px;padding:0 12px}
pre.json .message{position:relative}
pre.json .message.cached{box-shadow:inset 4px 0 0 #4ac26b}
pre.json .cache-break-at{box-shadow:inset 4px 0 0 #cf222e;background:#fff5f4}
pre.json .message:target{background:#eef6ff}
pre.json .message::after{content:attr(data-label);position:absolute;top:0;right:12px;color:#8c959f;font-size:12px}
.cache-marker{display:block;margin:4px -12px;padding:4px 12px;font-family:system-ui,sans-serif;font-weight:600;white-space:normal;user-select:none}
.cache-marker.breaks{background:#ffe5e3;color:#a40e26}
.cache-marker.prefix-end{background:#dafbe1;color:#116329}
.j-key{color:#0550ae}
.j-string{color:#0a3069}
.j-literal{color:#953800}
.notice{border-radius:8px;padding:10px 14px;margin:0 0 10px}
.notice h2{font-size:15px;margin:0 0 4px}
.notice ul{margin:0;padding-left:20px}
.violations{background:#ffe5e3;border:1px solid #ffc1bc}
.warnings{background:#fff8e1;border:1px solid #f0d58a}
footer{padding:16px 24px 32px;color:var(--muted);font-size:13px}
@media (max-width:640px){.page-header,main,.page-nav,footer{padding-left:12px;padding-right:12px}h1{font-size:20px}.fact{padding:6px 10px}}
`;
