import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Six agent turns, each reading two files (large results), then a question: enough to clear and then drop. */
function agentSession() {
  const turns = [1, 2, 3, 4, 5, 6].flatMap((turn) => [
    { id: `u${turn}`, role: "user", content: `What is in part ${turn}?` },
    {
      id: `a${turn}`,
      role: "assistant",
      content: `Let me read part ${turn}.`,
      tool_calls: [1, 2].map((file) => ({ id: `call_${turn}_${file}`, type: "function", function: { name: "read_file", arguments: `{"path":"part${turn}/${file}.ts"}` } })),
    },
    ...[1, 2].map((file) => ({
      id: `t${turn}_${file}`,
      role: "tool",
      tool_call_id: `call_${turn}_${file}`,
      toolName: "read_file",
      content: Array.from({ length: 60 }, (_, line) => `line ${line}: const value${line} = compute(${line}, ${turn});`).join("\n"),
    })),
    { id: `r${turn}`, role: "assistant", content: `Part ${turn} computes values.` },
  ]);
  return [...turns, { id: "u7", role: "user", content: "Summarise." }];
}

async function inspect(extra: ReadonlyArray<string> = []) {
  const made = await tempFiles({ "c.jsonl": jsonl(agentSession()) });
  cleanups.push(made.cleanup);
  const argv = [made.path("c.jsonl"), "--compression", "clear-tool-results,sliding-window", "--max-tokens", "4000", "--reserve-output", "0"];
  const table = await runInProcess(["inspect", ...argv, "--all", ...extra]);
  const html = await runInProcess(["inspect", ...argv, "--html", made.path("page.html")]);
  const build = await runInProcess(["build", ...argv, "--report"]);
  expect([table.code, html.code, build.code]).toEqual([0, 0, 0]);
  return { table: table.stdout, page: await readFile(made.path("page.html"), "utf8"), output: JSON.parse(build.stdout) };
}

interface Entry {
  id: string;
  type: string;
  plugin: string;
  inputIndex?: number;
  decision: string;
  tokens: number;
  tokensSaved?: number;
  history: Array<{ decision: string; plugin: string }>;
}

const number = (value: number) => value.toLocaleString("en-US");

describe("ctxpipe inspect: who saved what", () => {
  it("credits a result cleared by one strategy and dropped by the next to both, and the figures add up everywhere", async () => {
    const { table, page, output } = await inspect();
    const report = output.report;
    const compression = report.compression as { strategies: Array<{ name: string; itemsAffected: number; tokensSaved: number }>; savings: Array<{ id: string; strategy: string; tokensSaved: number }> };
    const entries = report.entries as Entry[];
    // The trap: an item the first strategy cleared, the second dropped.
    const both = entries.filter((entry) => entry.decision === "dropped" && entry.history.some((event) => event.decision === "cleared"));
    expect(both.length).toBeGreaterThan(0);
    for (const entry of both) {
      const [cleared, dropped] = compression.savings.filter((saving) => saving.id === entry.id);
      expect(cleared).toMatchObject({ strategy: "clear-tool-results" });
      expect(dropped).toMatchObject({ strategy: "sliding-window" });
      expect(cleared!.tokensSaved + dropped!.tokensSaved).toBe(entry.tokensSaved);
      // The placeholder is what the drop saved: far less than the result.
      expect(dropped!.tokensSaved).toBeLessThan(cleared!.tokensSaved);
      const split = `saved ${number(cleared!.tokensSaved)} by clear-tool-results + ${number(dropped!.tokensSaved)} by sliding-window`;
      expect(table).toMatch(new RegExp(`\\s${entry.id}\\s+tool-result\\s+dropped\\s+compress/sliding-window\\s+${number(entry.tokens)}\\s+${number(entry.tokensSaved!)}\\s.*${split.replaceAll("+", "\\+")}`));
      const row = page.slice(page.indexOf(`data-id="${entry.id}"`));
      expect(row.slice(0, row.indexOf("</tr>"))).toContain(
        `${number(entry.tokensSaved!)}<div class="muted saved-by">${number(cleared!.tokensSaved)} clear-tool-results</div><div class="muted saved-by">${number(dropped!.tokensSaved)} sliding-window</div>`,
      );
    }
    // Each strategy's figure is its own work, the same in build --report, the table and the page.
    const own = (name: string) => compression.savings.filter((saving) => saving.strategy === name).reduce((sum, saving) => sum + saving.tokensSaved, 0);
    for (const strategy of compression.strategies) {
      expect(strategy.tokensSaved).toBe(own(strategy.name));
      expect(table).toContain(`${strategy.name} (${number(strategy.itemsAffected)} items, ${number(strategy.tokensSaved)} tokens)`);
      expect(page).toContain(`<tr data-strategy="${strategy.name}"><td>${strategy.name}</td><td>ran</td><td class="num">${number(strategy.itemsAffected)}</td><td class="num">${number(strategy.tokensSaved)}</td></tr>`);
    }
    // And everything saved is credited once: the strategies', then what the budget fit took after them.
    const total = entries.reduce((sum, entry) => sum + (entry.tokensSaved ?? 0), 0);
    const fitBudget = total - own("clear-tool-results") - own("sliding-window");
    const parts = [`clear-tool-results ${number(own("clear-tool-results"))}`, `sliding-window ${number(own("sliding-window"))}`];
    if (fitBudget > 0) parts.push(`FitBudgetPlugin ${number(fitBudget)}`);
    expect(table).toMatch(new RegExp(`Saved: ${number(total)} tokens in all, each by the plugin that took them out: ${parts.map((part) => `${part} \\(\\d+ items?\\)`).join(", ")}\\n`));
    expect(page).toContain(`<p data-figure="saved" data-tokens="${total}">Saved ${number(total)} tokens in all`);
  });
});

describe("ctxpipe inspect: previews", () => {
  it("sets an assistant's text and each of its tool calls apart, in the table and on the page", async () => {
    const { table, page } = await inspect();
    const preview = 'Let me read part 6. · read_file({"path":"part6/1.ts"}) · read_file({"path":"part6/2.ts"})';
    expect(table).toMatch(/\sa6\s+assistant\s+kept\s.*— Let me read part 6\. · read_file\(\{"path":"part6\/1\.ts"\}\) · read_file\(\{"pa…\n/);
    expect(page).toContain(`<div class="preview">${preview.replaceAll('"', "&quot;")}</div>`);
    expect(page).not.toContain("part 6.read_file");
  });
});
