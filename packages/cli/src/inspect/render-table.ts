// `ctxpipe inspect` without --html: the inspection as plain text for a terminal (no colours, so it
// reads the same in a log). Long runs of kept messages fold into one line unless --all is given.
import type { BudgetSegmentKind, Inspection, TimelineRow } from "./inspection.js";

/** Conversations longer than this fold runs of kept rows. */
const FOLD_ABOVE_ROWS = 40;
/** Runs of kept rows longer than this fold into one line. */
const FOLD_RUN = 3;
const BAR_WIDTH = 60;

const BAR_CHARACTERS: Readonly<Record<BudgetSegmentKind, string>> = {
  system: "S",
  user: "U",
  assistant: "A",
  "tool-results": "T",
  summaries: "Σ",
  other: "O",
  overhead: "f",
  "reserved-output": "R",
  free: ".",
};

const number = (value: number) => value.toLocaleString("en-US");
const percent = (part: number, whole: number) => (whole === 0 ? "0.0%" : `${((part / whole) * 100).toFixed(1)}%`);

/** Cells longer than this are shortened (ids can be long); the last column gets what width is left. */
const MAX_CELL = 28;
const MIN_LAST_COLUMN = 30;
/** The preview after a row's reason, on one line: enough to recognise the message. */
const TABLE_PREVIEW_LENGTH = 72;

function shorten(text: string, length: number): string {
  const characters = [...text];
  return characters.length > length ? `${characters.slice(0, Math.max(1, length - 1)).join("")}…` : text;
}

function table(rows: ReadonlyArray<ReadonlyArray<string>>, rightAligned: ReadonlySet<number>, maxWidth: number): string[] {
  const limit = Number.isFinite(maxWidth) ? MAX_CELL : Number.POSITIVE_INFINITY;
  const cells = rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : shorten(cell, limit))));
  const widths: number[] = [];
  for (const row of cells) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, [...cell].length);
    });
  }
  const before = widths.slice(0, -1).reduce((sum, width) => sum + width + 2, 0);
  // Too narrow for the last column beside the others: it goes on a line of its own, indented.
  const ownLine = maxWidth - before < MIN_LAST_COLUMN;
  return cells.flatMap((row) => {
    const padded = row.slice(0, -1).map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)));
    const last = row[row.length - 1] ?? "";
    if (!ownLine) return [shorten([...padded, last].join("  "), maxWidth).trimEnd()];
    const lines = [padded.join("  ").trimEnd()];
    if (last.length > 0) lines.push(shorten(`    ${last}`, maxWidth));
    return lines;
  });
}

function budgetBar(inspection: Inspection): string {
  const total = Math.max(inspection.budget.maxTokens, inspection.budget.segments.reduce((sum, segment) => sum + segment.tokens, 0));
  let bar = "";
  for (const segment of inspection.budget.segments) {
    const cells = total === 0 ? 0 : Math.round((segment.tokens / total) * BAR_WIDTH);
    bar += BAR_CHARACTERS[segment.kind].repeat(segment.tokens > 0 ? Math.max(1, cells) : 0);
  }
  return `[${[...bar].slice(0, BAR_WIDTH).join("").padEnd(BAR_WIDTH, ".")}]`;
}

type Line = { readonly row: TimelineRow } | { readonly folded: ReadonlyArray<TimelineRow> };

function foldKeptRuns(rows: ReadonlyArray<TimelineRow>, all: boolean): Line[] {
  if (all || rows.length <= FOLD_ABOVE_ROWS) return rows.map((row) => ({ row }));
  const lines: Line[] = [];
  let run: TimelineRow[] = [];
  const flush = () => {
    if (run.length > FOLD_RUN) lines.push({ folded: run });
    else lines.push(...run.map((row) => ({ row })));
    run = [];
  };
  for (const row of rows) {
    if (row.decision === "kept" && row.history.length <= 1) run.push(row);
    else {
      flush();
      lines.push({ row });
    }
  }
  flush();
  return lines;
}

/** The reason, who saved what when several did, and the start of the item's text. */
function reasonCell(row: TimelineRow): string {
  const split = row.savedBy.length > 1 ? `; saved ${row.savedBy.map((credit) => `${number(credit.tokens)} by ${credit.plugin}`).join(" + ")}` : "";
  const preview = row.preview === "" ? "" : ` — ${shorten(row.preview.replace(/\s+/g, " ").trim(), TABLE_PREVIEW_LENGTH)}`;
  return `${row.reason}${split}${preview}`;
}

export function renderTable(inspection: Inspection, options: { readonly all: boolean; readonly columns: number }): string {
  const out: string[] = [];
  const { budget } = inspection;
  const exactness = (exact: boolean) => (exact ? "exact" : "estimated");
  out.push(`ctxpipe inspect: ${inspection.title}`);
  out.push(`provider ${inspection.provider} · model ${inspection.model} · tokenizer ${inspection.tokenizer.name} (${exactness(inspection.tokenizer.exact)})`);
  out.push(
    `request: ${number(inspection.tokenCount)} tokens (${exactness(inspection.tokenCountExact)}) of ${number(budget.available)} available` +
      ` (${budget.origin})` +
      ` · ${number(inspection.inputCount)} messages in, ${number(inspection.outputCount)} messages sent`,
  );
  out.push("");
  out.push(`Budget ${budgetBar(inspection)}`);
  const segmentRows = inspection.budget.segments.map((segment) => [
    `  ${BAR_CHARACTERS[segment.kind]} ${segment.label}`,
    number(segment.tokens),
    percent(segment.tokens, budget.maxTokens),
    segment.items === 0 ? "" : `${number(segment.items)} item${segment.items === 1 ? "" : "s"}`,
  ]);
  out.push(...table(segmentRows, new Set([1, 2]), options.columns));
  out.push("");
  const decided = Object.entries(inspection.decisions).filter(([, count]) => count > 0);
  out.push(`Decisions: ${decided.map(([decision, count]) => `${number(count)} ${decision}`).join(" · ")}`);
  if (inspection.compression !== undefined) {
    const compression = inspection.compression;
    const strategies = compression.strategies.filter((strategy) => strategy.ran).map((strategy) => `${strategy.name} (${number(strategy.itemsAffected)} items, ${number(strategy.tokensSaved)} tokens)`);
    out.push(
      `Compression: ${compression.triggered ? "triggered" : "not triggered"}, about ${number(compression.usageBefore)} → ${number(compression.usageAfter)} tokens` +
        (strategies.length === 0 ? "" : `; ${strategies.join(", ")}`),
    );
  }
  if (inspection.savings.byPlugin.length > 0) {
    const savings = inspection.savings;
    const parts = savings.byPlugin.map((entry) => `${entry.plugin.replace(/Plugin$/, "")} ${number(entry.tokens)} (${number(entry.items)} item${entry.items === 1 ? "" : "s"})`);
    out.push(`Saved: ${number(savings.total)} tokens in all, each by the plugin that took them out: ${parts.join(", ")}`);
  }
  out.push("");
  out.push("Timeline");
  const header = ["where", "id", "type", "decision", "stage/plugin", "tokens", "saved", "reason — preview"];
  const rows: string[][] = [header];
  for (const line of foldKeptRuns(inspection.timeline, options.all)) {
    if ("folded" in line) {
      const first = line.folded[0]!;
      const last = line.folded[line.folded.length - 1]!;
      const tokens = line.folded.reduce((sum, row) => sum + row.tokens, 0);
      rows.push([`${first.location ?? ""} …`, `${first.id} … ${last.id}`, "", `${line.folded.length} kept`, "", number(tokens), "", "(--all shows each)"]);
      continue;
    }
    const row = line.row;
    rows.push([
      row.location ?? "(added)",
      row.id,
      row.type,
      row.decision + (row.relatedId === undefined ? "" : ` → ${row.relatedId}`),
      `${row.stage}/${row.plugin.replace(/Plugin$/, "")}`,
      number(row.tokens),
      row.tokensSaved === undefined ? "" : number(row.tokensSaved),
      reasonCell(row),
    ]);
  }
  out.push(...table(rows, new Set([5, 6]), options.columns - 2).map((line) => `  ${line}`));
  if (inspection.summaries.length > 0) {
    out.push("");
    out.push("Summaries");
    for (const summary of inspection.summaries) {
      const range = summary.coveredIds.length === 0 ? "" : ` (${summary.coveredIds[0]} … ${summary.coveredIds[summary.coveredIds.length - 1]})`;
      out.push(
        `  ${summary.id}: ${summary.source === "new" ? "made in this build" : summary.source === "record" ? "persisted record" : "summary message"}, ${summary.sent ? "sent" : "not sent"}, ` +
          `${number(summary.tokens)} tokens for ${number(summary.coveredIds.length)} messages${range} of ${number(summary.coveredTokens)} tokens` +
          (summary.note === undefined ? "" : `; ${summary.note}`),
      );
      const firstLine = summary.text.split("\n")[0] ?? "";
      out.push(shorten(`    ${firstLine}`, options.columns));
    }
  }
  out.push("");
  out.push(`Cache: ${describeCache(inspection)}`);
  const breakpoints = describeCacheBreakpoints(inspection);
  if (breakpoints !== undefined) out.push(`Cache breakpoints: ${breakpoints}`);
  for (const warning of inspection.warnings) out.push(`Warning: ${warning}`);
  for (const violation of inspection.violations) out.push(`Violation: ${violation}`);
  return `${out.map((line) => shorten(line, options.columns)).join("\n")}\n`;
}

export function describeCache(inspection: Inspection): string {
  const cache = inspection.cache;
  if (!cache.compared) return cache.note ?? "not compared";
  const prefix = `compared with the previous model call's request: ${cache.sameMessages} of its ${cache.previousMessages} messages are unchanged`;
  return `${prefix}; ${describeBreak(cache)}${describeReusableTokens(cache)}`;
}

function describeBreak(cache: Inspection["cache"]): string {
  if (cache.breaksAt === undefined) return "it is a prefix of this one, so a prompt cache reuses all of it";
  if (cache.breaksAt === "messages") return `the cache breaks at message ${cache.sameMessages} (the first that differs)`;
  // The tool definitions come first, so a break at the system prompt still reuses them.
  if (cache.breaksAt === "system" && (cache.reusableTokens ?? 0) > 0) return "the cache breaks at the system prompt, so only the tool definitions are reused";
  return `the cache breaks at the ${cache.breaksAt === "tools" ? "tool definitions" : "system prompt"}, so nothing is reused`;
}

/** The reusable prefix in tokens, when the renderer counted its parts. */
function describeReusableTokens(cache: Inspection["cache"]): string {
  if (cache.reusableTokens === undefined || cache.previousTokens === undefined) return "";
  return ` (${number(cache.reusableTokens)} of its ${number(cache.previousTokens)} tokens)`;
}

/** Where the renderer asked the provider to cache (Anthropic), and where not and why; undefined for other renderers. */
export function describeCacheBreakpoints(inspection: Inspection): string | undefined {
  const breakpoints = inspection.cache.breakpoints;
  if (breakpoints === undefined) return undefined;
  if (breakpoints.length === 0) return "none: the request has nothing to mark";
  const where = (breakpoint: NonNullable<Inspection["cache"]["breakpoints"]>[number]) =>
    breakpoint.part === "tools" ? "after the tool definitions" : breakpoint.part === "system" ? "after the system prompt" : `at the end of message ${breakpoint.messageIndex}`;
  return breakpoints
    .map((breakpoint) => `${where(breakpoint)} (${number(breakpoint.prefixTokens)} tokens)${breakpoint.placed ? "" : ` not placed: ${breakpoint.reason ?? "no reason given"}`}`)
    .join("; ");
}
