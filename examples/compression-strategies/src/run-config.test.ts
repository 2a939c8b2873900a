import { CompressionPlugin } from "@ctxpipe/compression";
import { PluginOptionsError } from "@ctxpipe/core";
import { beforeAll, describe, expect, test } from "vitest";
import { agentTurn } from "./agent-conversation.js";
import { configNames, loadConfig } from "./load-config.js";
import { type ConfigRun, MAX_TOKENS, runConfig, TURNS } from "./run-config.js";

const runs = new Map<string, ConfigRun>();
const run = (name: string) => runs.get(name)!;

beforeAll(async () => {
  for (const name of configNames()) runs.set(name, await runConfig(name));
}, 60_000);

test("every configuration file is there", () => {
  expect(configNames()).toEqual(["chain", "clear-tool-results", "priority", "sliding-window", "summarize"]);
});

describe.for(["chain", "clear-tool-results", "priority", "sliding-window", "summarize"])("%s", (name) => {
  test("every request fits the budget, and compression brought it between target and trigger", () => {
    const { build, turns } = run(name);
    expect(build.tokenCount).toBeLessThanOrEqual(MAX_TOKENS);
    for (const turn of turns) expect(turn.tokenCount, `turn ${turn.turn}`).toBeLessThanOrEqual(MAX_TOKENS);
    const compression = build.report.compression!;
    expect(compression.triggered).toBe(true);
    expect(compression.usageAfter).toBeLessThanOrEqual(compression.triggerAt!);
    expect(compression.usageAfter).toBeGreaterThanOrEqual(compression.targetAt!);
    // The strategies did the work; core's FitBudgetPlugin had nothing left to drop.
    expect(Object.keys(run(name).decisions)).not.toContain("FitBudgetPlugin");
  });

  test("the newest user message and the current loop are sent as they are", () => {
    const { build } = run(name);
    const entries = new Map(build.report.entries.map((entry) => [entry.id, entry]));
    for (const id of ["u50", "a50", "t50"]) expect(entries.get(id)?.decision, id).toBe("kept");
    const result = agentTurn(TURNS)[2]!;
    expect(build.request.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_50", content: result.type === "tool-result" ? result.output : undefined });
  });

  test("the cached prefix breaks on far fewer turns than there are", () => {
    const { turns, cacheBreaks } = run(name);
    expect(turns).toHaveLength(TURNS);
    expect(turns[0]!.cache.compared).toBe(false);
    expect(cacheBreaks).toBeGreaterThan(0);
    // Priority drops from the middle, so a new low-priority turn can send an older one back: it breaks more often.
    expect(cacheBreaks).toBeLessThan(name === "priority" ? TURNS / 2 : TURNS / 4);
  });
});

test("cutting only from the front keeps the prefix longer than dropping by priority", () => {
  expect(run("sliding-window").cacheBreaks).toBeLessThan(run("priority").cacheBreaks);
  expect(run("summarize").cacheBreaks).toBeLessThan(run("priority").cacheBreaks);
});

test("swapping the configuration changes the decisions, and only the configured strategies make them", () => {
  const kinds = Object.fromEntries(configNames().map((name) => [name, Object.fromEntries(Object.entries(run(name).decisions).map(([plugin, counts]) => [plugin, Object.keys(counts).sort()]))]));
  expect(kinds).toEqual({
    chain: { "clear-tool-results": ["cleared"] },
    "clear-tool-results": { "clear-tool-results": ["cleared"] },
    priority: { priority: ["dropped"] },
    "sliding-window": { "sliding-window": ["dropped"] },
    summarize: { summarize: ["summarized"] },
  });
  // The same history: sliding-window keeps one unbroken stretch of the newest turns, priority does not.
  const kept = (name: string) => run(name).build.includedIds.filter((id) => id.startsWith("u"));
  expect(kept("sliding-window")).toEqual(kept("sliding-window").toSorted());
  expect(Number(kept("sliding-window")[0]!.slice(1))).toBe(50 - kept("sliding-window").length + 1);
  expect(kept("priority")).not.toEqual(kept("sliding-window"));
});

test("priority drops the exploratory turns first and keeps every constraint", () => {
  const { build } = run("priority");
  const excluded = new Set(build.excludedIds);
  const turnsOf = (tool: string) => Array.from({ length: TURNS - 1 }, (_, index) => agentTurn(index + 1)).filter((turn) => turn[1]!.type === "assistant" && (turn[1] as { toolCalls: Array<{ name: string }> }).toolCalls[0]!.name === tool);
  for (const turn of turnsOf("update_plan")) expect(excluded.has(turn[0]!.id), turn[0]!.id).toBe(false);
  for (const turn of turnsOf("search_code")) expect(excluded.has(turn[0]!.id), turn[0]!.id).toBe(true);
});

test("clearing leaves the excluded tool's results and keeps every call paired with its result", () => {
  const { build } = run("clear-tool-results");
  const cleared = build.report.entries.filter((entry) => entry.decision === "cleared");
  expect(cleared.length).toBeGreaterThan(0);
  for (const entry of cleared) expect(entry.tokensSaved, entry.id).toBeGreaterThan(0);
  const planResults = Array.from({ length: 7 }, (_, index) => `t${String((index + 1) * 7).padStart(2, "0")}`);
  for (const id of planResults) expect(cleared.map((entry) => entry.id)).not.toContain(id);
  const messages = build.request.messages;
  const callIds = messages.flatMap((message) => (message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.id) : []));
  const resultIds = messages.flatMap((message) => (message.role === "tool" ? [message.tool_call_id] : []));
  expect(resultIds).toEqual(callIds);
});

test("summarize makes one record per step and later turns reuse it instead of calling the summarizer", () => {
  const { build, records, summarizerCalls, cacheBreaks } = run("summarize");
  expect(records).toHaveLength(1);
  const record = records[0]!;
  expect(record.startId).toBe("u01");
  expect(build.excludedIds).toEqual(record.coveredIds);
  // Every constraint the user stated survives in the summary.
  const constraints = record.coveredIds.filter((id) => /^u\d+$/.test(id) && Number(id.slice(1)) % 7 === 0);
  expect(constraints.length).toBeGreaterThan(1);
  for (const id of constraints) expect(record.summary).toContain(`Turn ${Number(id.slice(1))}: constraint`);
  expect(build.request.messages[1]).toEqual({ role: "system", content: `[Previous conversation summary (${record.coveredIds.length} messages compressed)]\n\n${record.summary}` });
  // One call per step of the hysteresis, not one per turn.
  expect(summarizerCalls).toBe(cacheBreaks);
});

test("without records to carry, a pipeline that built every turn sends what a fresh one does", () => {
  for (const name of ["sliding-window", "clear-tool-results", "priority"]) {
    expect(run(name).lastBuild.request, name).toEqual(run(name).build.request);
  }
});

test("a mistyped configuration fails with an error naming the field", () => {
  const { options } = loadConfig("clear-tool-results");
  expect(() => new CompressionPlugin({ ...options, strategies: [{ type: "clear-tool-results", keepRecnt: 3 } as never] })).toThrow(PluginOptionsError);
  expect(() => new CompressionPlugin({ ...options, strategies: [{ type: "clear-tool-results", keepRecnt: 3 } as never] })).toThrow(/keepRecnt/);
});
