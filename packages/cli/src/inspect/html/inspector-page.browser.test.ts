/// <reference lib="dom" />
// The page `ctxpipe inspect --html` writes, loaded in a real headless Chromium (the build that arrives
// with pnpm install, or the system's: see @ctxpipe/test-binaries; driven by playwright-core): it loads with no error and no network request, and shows the figures of
// `ctxpipe build --report` for the same input and options.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BuildReport, ReportEntry } from "@ctxpipe/core";
// A private tool package, imported by path: a published package never depends on it.
import { findChromium } from "../../../../../tools/test-binaries/src/index.js";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../../cli/run-cli.js";

const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));

interface BuildJson {
  readonly request: { readonly messages: ReadonlyArray<unknown> };
  readonly tokenCount: number;
  readonly report: BuildReport;
}

async function ctxpipe(argv: ReadonlyArray<string>): Promise<string> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk));
  stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const status = await runCli(argv, { stdin: Readable.from([]), stdout, stderr, env: {} });
  if (status !== 0) throw new Error(`ctxpipe ${argv.join(" ")} exited ${status}: ${Buffer.concat(err).toString()}`);
  return Buffer.concat(out).toString();
}

const CASES = [
  {
    name: "the basic example (a repair and drops)",
    file: "examples/basic-pipeline/data/conversation.jsonl",
    options: ["--max-tokens", "2000"],
    origin: "2,000 budget − 500 reserved for the answer (a quarter of --max-tokens 2,000)",
    expect: ["dropped", "synthesized"],
  },
  {
    name: "a long tool session that compression clears and summarizes",
    file: "packages/cli/src/inspect/html/__fixtures__/long-tool-session.jsonl",
    options: ["--max-tokens", "13000", "--reserve-output", "1000", "--system", "You are a careful performance engineer.", "--compression", "clear-tool-results,summarize"],
    origin: "13,000 budget − 1,000 reserved for the answer",
    expect: ["cleared", "summarized"],
  },
] as const;

/** The budget kind each item type is counted in (as the inspector groups them). */
const KIND_OF_TYPE: Readonly<Record<string, string>> = {
  system: "system",
  user: "user",
  "user-intervention": "user",
  assistant: "assistant",
  thinking: "assistant",
  error: "assistant",
  "tool-result": "tool-results",
  "subagent-result": "tool-results",
  summary: "summaries",
};

describe("the inspector page in headless Chromium", { timeout: 60_000 }, () => {
  let browser: Browser;
  let directory: string;

  beforeAll(async () => {
    // Fails, never skips, when no Chromium can be found: the message says how to get one.
    const chromiumBuild = await findChromium();
    directory = await mkdtemp(join(tmpdir(), "ctxpipe-inspector-"));
    // headless: playwright adds --headless itself; plain launch() runs on a fresh temporary profile it deletes on close.
    browser = await chromium.launch({
      executablePath: chromiumBuild.executable,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  /** Opens the page and records every console error, page error and request while it loads. */
  async function open(path: string, width = 1280): Promise<{ page: Page; problems: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(path).href, { waitUntil: "load" });
    return { page, problems, requests };
  }

  test.for(CASES)("$name: loads cleanly, offline, and shows the build's figures", async ({ file, options, origin, expect: decisions }) => {
    const input = join(ROOT, file);
    const path = join(directory, `${file.replaceAll("/", "_")}.html`);
    await ctxpipe(["inspect", input, ...options, "--html", path]);
    const build = JSON.parse(await ctxpipe(["build", input, ...options, "--report"])) as BuildJson;
    const { report } = build;
    const { page, problems, requests } = await open(path);

    // Loaded with no error, and fetched nothing but the page itself.
    expect(problems).toEqual([]);
    expect(requests).toEqual([pathToFileURL(path).href]);

    // The header and the budget.
    expect(await page.getAttribute('[data-figure="token-count"]', "data-value")).toBe(String(build.tokenCount));
    expect(await page.getAttribute('[data-figure="available"]', "data-value")).toBe(String(report.budget!.available));
    expect(await page.textContent('[data-figure="budget-origin"]')).toBe(origin);
    const segments = await page.$$eval(".budget-bar .segment", (elements) => elements.map((element) => ({ kind: element.getAttribute("data-kind")!, tokens: Number(element.getAttribute("data-tokens")) })));
    const tokensOf = (kind: string) => segments.find((segment) => segment.kind === kind)?.tokens ?? 0;
    const sent = [...report.entries, ...report.synthesized].filter((entry) => !["dropped", "summarized", "merged"].includes(entry.decision));
    for (const kind of new Set(Object.values(KIND_OF_TYPE))) {
      const expected = sent.filter((entry) => KIND_OF_TYPE[entry.type] === kind).reduce((sum, entry) => sum + entry.tokens, 0);
      expect(tokensOf(kind), kind).toBe(expected);
    }
    const content = segments.filter((segment) => !["overhead", "reserved-output", "free"].includes(segment.kind)).reduce((sum, segment) => sum + segment.tokens, 0);
    expect(content + tokensOf("overhead")).toBe(report.budget!.used);
    expect(tokensOf("reserved-output")).toBe(report.budget!.reserveOutputTokens);
    expect(segments.reduce((sum, segment) => sum + segment.tokens, 0)).toBe(report.budget!.maxTokens);
    // Each visible segment is as wide as its share of the bar.
    const barWidth = await page.$eval(".budget-bar", (element) => element.clientWidth);
    const widths = await page.$$eval(".budget-bar .segment", (elements) => elements.map((element) => element.getBoundingClientRect().width));
    for (const [index, segment] of segments.entries()) expect(Math.abs(widths[index]! - (segment.tokens / report.budget!.maxTokens) * barWidth)).toBeLessThan(1.5);

    // The decision counts, and one timeline row per item.
    const counts = await page.$$eval(".decision-count", (elements) => Object.fromEntries(elements.map((element) => [element.getAttribute("data-decision"), Number(element.getAttribute("data-count"))])));
    const expectedCounts: Record<string, number> = Object.fromEntries(Object.keys(counts).map((decision) => [decision, 0]));
    for (const entry of report.entries) expectedCounts[entry.decision]!++;
    expect(counts).toEqual(expectedCounts);
    const rowIds = await page.$$eval(".timeline tr.row", (rows) => rows.map((row) => row.getAttribute("data-id")));
    expect(rowIds.length).toBe(report.entries.length + report.synthesized.length);
    expect(new Set(rowIds)).toEqual(new Set([...report.entries, ...report.synthesized].map((entry: ReportEntry) => entry.id)));
    expect(await page.locator(".timeline tr.row.synthesized").count()).toBe(report.synthesized.length);
    // The case shows what it was chosen for (a repair and drops; clearing and summaries).
    for (const decision of decisions) expect(await page.locator(`.timeline tr.row[data-decision="${decision}"]`).count(), decision).toBeGreaterThan(0);

    // The summaries cover what the report says they cover.
    for (const summary of await page.$$eval(".summary", (elements) => elements.map((element) => ({ id: element.getAttribute("data-summary-id")!, covered: [...element.querySelectorAll("[data-covered-id]")].map((item) => item.getAttribute("data-covered-id")) })))) {
      expect(summary.covered).toEqual(report.entries.filter((entry) => entry.decision === "summarized" && entry.relatedId === summary.id).map((entry) => entry.id));
    }
    if (decisions.includes("summarized" as never)) expect(await page.locator(".summary").count()).toBeGreaterThan(0);

    // The cache break point, in words and marked in the request.
    const cache = report.cache;
    const cacheText = page.locator(".cache-text");
    expect(await cacheText.getAttribute("data-compared")).toBe(String(cache.compared));
    expect(await cacheText.getAttribute("data-breaks-at")).toBe(cache.breaksAt ?? (cache.compared ? "nowhere" : "not-compared"));
    if (cache.compared) {
      expect(await cacheText.textContent()).toContain(`${cache.sameMessages} of its ${cache.previousMessages} messages`);
      const markedBefore = await page.$eval("#cache-marker", (marker) => marker.nextElementSibling?.getAttribute("data-message-index") ?? "end");
      expect(markedBefore).toBe(cache.breaksAt === "messages" ? String(cache.sameMessages) : cache.previousMessages < build.request.messages.length ? String(cache.previousMessages) : "end");
    }

    // The request: one block per message; short strings exactly as build prints them, long ones shortened with a note.
    expect(await page.locator("pre.json .message").count()).toBe(build.request.messages.length);
    const shown = await page.$eval("pre.json", (pre) => {
      const copy = pre.cloneNode(true) as HTMLElement;
      for (const marker of copy.querySelectorAll(".cache-marker")) marker.remove();
      document.body.append(copy);
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point: block boundaries become line breaks
      const text = copy.innerText;
      copy.remove();
      return text;
    });
    const longest = Math.max(...JSON.stringify(build.request).match(/"(?:[^"\\]|\\.)*"/g)!.map((string) => (JSON.parse(string) as string).length));
    if (longest <= 2000) expect(shown).toBe(JSON.stringify(build.request, null, 2));
    else {
      expect(Number(await page.getAttribute("#request .note", "data-shortened"))).toBeGreaterThan(0);
      expect(shown).toMatch(/… [\d,]+ more characters"/);
      expect(await page.textContent("#request .note")).toContain("ctxpipe build prints the request whole");
    }

    // Every in-page link leads somewhere.
    const broken = await page.$$eval('a[href^="#"]', (links) => links.map((link) => link.getAttribute("href")!.slice(1)).filter((id) => document.getElementById(id) === null));
    expect(broken).toEqual([]);
    await page.close();
  });

  test("the decision filter hides and shows rows by clicking; the page fits a narrow window; screenshot", async () => {
    const [, compressed] = CASES;
    const path = join(directory, "filter.html");
    await ctxpipe(["inspect", join(ROOT, compressed.file), ...compressed.options, "--html", path]);
    const { page, problems } = await open(path);
    const rows = page.locator(".timeline tr.row");
    const total = await rows.count();
    const summarized = await page.locator('.timeline tr.row[data-decision="summarized"]').count();
    expect(summarized).toBeGreaterThan(0);

    await page.click('label:has(#show-summarized)');
    expect(await page.isChecked("#show-summarized")).toBe(false);
    expect(await page.locator(".timeline tr.row:visible").count()).toBe(total - summarized);
    expect(await page.locator('.timeline tr.row[data-decision="summarized"]:visible').count()).toBe(0);
    await page.click('label:has(#show-summarized)');
    expect(await page.locator(".timeline tr.row:visible").count()).toBe(total);

    // A covered id in the summaries leads to its row.
    const link = page.locator(".summary [data-covered-id] a").first();
    const target = (await link.getAttribute("href"))!;
    await link.click();
    expect(await page.evaluate(() => location.hash)).toBe(target);
    expect(await page.locator(`${target}:target`).count()).toBe(1);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "/tmp/inspector.png", fullPage: true });
    expect(problems).toEqual([]);

    // At phone width the page itself does not scroll sideways: wide tables scroll in their own box.
    await page.setViewportSize({ width: 400, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await page.close();
    expect((await readFile(path, "utf8")).length).toBeGreaterThan(0);
  });
});
