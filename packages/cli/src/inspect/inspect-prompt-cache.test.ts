// `ctxpipe inspect` shows what the prompt cache can reuse, in tokens, next to the break point, and
// for Anthropic where the renderer placed its cache breakpoints, in the table and on the HTML page.
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";
import { SMALL_INSPECTION } from "./html/__fixtures__/small-inspection.js";
import { renderCacheHtml } from "./html/render-cache-html.js";
import { describeCache, describeCacheBreakpoints } from "./render-table.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A coding session long enough for Claude to cache: file contents in tool results, then a question. */
function session() {
  const turns = [1, 2, 3].flatMap((turn) => [
    { id: `u${turn}`, role: "user", content: `What is in part ${turn}?` },
    { id: `a${turn}`, role: "assistant", content: "Reading it.", tool_calls: [{ id: `call_${turn}`, type: "function", function: { name: "read_file", arguments: `{"path":"part${turn}.ts"}` } }] },
    { id: `t${turn}`, role: "tool", tool_call_id: `call_${turn}`, toolName: "read_file", content: Array.from({ length: 60 }, (_, line) => `line ${line}: const value${line} = compute(${line}, ${turn});`).join("\n") },
    { id: `r${turn}`, role: "assistant", content: `Part ${turn} computes values.` },
  ]);
  return [...turns, { id: "u4", role: "user", content: "Which part is slowest?" }];
}

async function inspectAnthropic() {
  const made = await tempFiles({ "c.jsonl": jsonl(session()) });
  cleanups.push(made.cleanup);
  const argv = [made.path("c.jsonl"), "--provider", "anthropic", "--model", "claude-sonnet-4-5"];
  const table = await runInProcess(["inspect", ...argv]);
  const html = await runInProcess(["inspect", ...argv, "--html", made.path("page.html")]);
  const build = await runInProcess(["build", ...argv, "--report"]);
  expect([table.code, html.code, build.code], `${table.stderr}${html.stderr}${build.stderr}`).toEqual([0, 0, 0]);
  return { table: table.stdout, page: await readFile(made.path("page.html"), "utf8"), output: JSON.parse(build.stdout) };
}

describe("inspect: the prompt cache in tokens and breakpoints", () => {
  it("the table and the page give the reusable tokens of the previous request and list the breakpoints", async () => {
    const { table, page, output } = await inspectAnthropic();
    const cache = output.report.cache;
    expect(cache.reusableTokens).toBeGreaterThan(0);
    const tokens = `(${cache.reusableTokens.toLocaleString("en-US")} of its ${cache.previousTokens.toLocaleString("en-US")} tokens)`;
    expect(table).toContain(tokens);
    expect(page).toContain(tokens);
    expect(page).toContain(`data-reusable-tokens="${cache.reusableTokens}"`);
    // No tools and no system prompt here: the last two messages carry the breakpoints, the last one ending the whole request.
    const last = output.request.messages.length - 1;
    expect(table).toMatch(new RegExp(`Cache breakpoints: at the end of message ${last - 1} \\([\\d,]+ tokens\\); at the end of message ${last} \\(${output.tokenCount.toLocaleString("en-US")} tokens\\)\n`));
    expect(page).toContain(`at the end of <a href="#message-${last}">message ${last}</a>`);
    expect(JSON.stringify(output.request.messages[last])).toContain("cache_control");
  });

  it("describes a break at the system prompt after reused tool definitions, with the tokens", () => {
    const cache = { compared: true, breaksAt: "system" as const, sameMessages: 0, previousMessages: 4, reusableTokens: 1500, previousTokens: 9000, note: undefined };
    expect(describeCache({ ...SMALL_INSPECTION, cache })).toBe(
      "compared with the previous model call's request: 0 of its 4 messages are unchanged; the cache breaks at the system prompt, so only the tool definitions are reused (1,500 of its 9,000 tokens)",
    );
  });

  it("names a breakpoint not placed and why; a renderer without breakpoints gets no line", () => {
    const breakpoints = [
      { part: "tools" as const, prefixTokens: 40, placed: false, reason: "the request up to here is 40 tokens, below the 1024 tokens the model caches at least" },
      { part: "system" as const, prefixTokens: 2100, placed: true },
    ];
    const inspection = { ...SMALL_INSPECTION, cache: { ...SMALL_INSPECTION.cache, breakpoints } };
    expect(describeCacheBreakpoints(inspection)).toBe(
      "after the tool definitions (40 tokens) not placed: the request up to here is 40 tokens, below the 1024 tokens the model caches at least; after the system prompt (2,100 tokens)",
    );
    expect(renderCacheHtml(inspection)).toContain('<li class="cache-breakpoint" data-part="tools" data-placed="false" data-prefix-tokens="40">after the tool definitions, 40 tokens up to it: not placed: the request');
    expect(describeCacheBreakpoints(SMALL_INSPECTION)).toBeUndefined();
    expect(renderCacheHtml(SMALL_INSPECTION)).not.toContain("cache-breakpoint");
  });
});
