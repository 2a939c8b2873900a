import { contentHandle, createPipeline, type ItemInput, type ItemOf } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import type { ClearToolResultsSettings } from "./clear-tool-results.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

/** One agent turn: a short question, a call to `tool`, its long result, a short answer. */
function toolTurn(turn: number, tool = "read_file", size = 100): ItemInput[] {
  return [
    { id: `u${turn}`, type: "user", text: `question ${turn}` },
    { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: tool, arguments: `{"n":${turn}}` }] },
    { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: tool, output: words(size, "w") },
    { id: `a${turn}`, type: "assistant", text: `answer ${turn}` },
  ];
}

function history(turns: number, toolOf: (turn: number) => string = () => "read_file"): ItemInput[] {
  return Array.from({ length: turns }, (_, index) => toolTurn(index + 1, toolOf(index + 1))).flat();
}

function plugin(settings: Omit<ClearToolResultsSettings, "type"> = {}, tokenBudget = 1000, extra: { triggerThreshold?: number; targetUsage?: number } = {}) {
  return new CompressionPlugin({ strategies: [{ type: "clear-tool-results", ...settings }], tokenBudget, minRecentMessages: 0, ...extra });
}

const SHORT_PLACEHOLDER = "[Tool result cleared to save context ({tokens} tokens). Call {tool} again if you need it.]";

const cleared = (result: { report: { entries: ReadonlyArray<{ id: string; decision: string }> } }) =>
  result.report.entries.filter((entry) => entry.decision === "cleared").map((entry) => entry.id);

describe("clear-tool-results", () => {
  test("replaces old results by a placeholder under the same id, call id and tool name", async () => {
    const items = history(10);
    const result = await createPipeline({ plugins: [plugin({ clearAtLeast: 0 })] }).build(items, { tokenizer: wordTokenizer });
    const ids = cleared(result);
    expect(ids.length).toBeGreaterThan(0);
    // Every item is still sent: clearing drops nothing.
    expect(result.includedIds).toEqual(items.map((item) => item.id));
    for (const id of ids) {
      const turn = id.slice(1);
      const message = result.request.messages.find((candidate) => candidate.role === "tool" && candidate.tool_call_id === `call_${turn}`);
      const handle = contentHandle(words(100, "w"));
      expect(message?.content).toBe(`[Tool result cleared to save context (100 tokens). It is kept whole as ${handle}: call retrieve_context with {"handle":"${handle}"} to read it, or call read_file again.]`);
      const callIndex = result.request.messages.findIndex((candidate) => candidate.role === "assistant" && candidate.tool_calls?.[0]?.id === `call_${turn}`);
      expect(result.request.messages.indexOf(message!)).toBe(callIndex + 1);
    }
  });

  test("reports each cleared result with the tokens it saved", async () => {
    const result = await createPipeline({ plugins: [plugin({ clearAtLeast: 0, placeholder: "[cleared {tool}]" })] }).build(history(10), { tokenizer: wordTokenizer });
    const entries = result.report.entries.filter((entry) => entry.decision === "cleared");
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      // "[cleared read_file]" is 4 words and marks; the 100 words of output are gone.
      expect(entry).toMatchObject({ stage: "compress", plugin: "clear-tool-results", tokensSaved: 100 - 4, tokens: 4 });
    }
    const strategy = result.report.compression!.strategies[0]!;
    expect(strategy).toEqual({ name: "clear-tool-results", ran: true, itemsAffected: entries.length, tokensSaved: entries.length * 96 });
  });

  test("keeps the newest keepRecent results, even past the goal", async () => {
    const items = history(10);
    for (const keepRecent of [0, 2, 5]) {
      // A budget so small that every clearable result goes.
      const result = await createPipeline({ plugins: [plugin({ keepRecent, clearAtLeast: 0 }, 100)] }).build(items, { tokenizer: wordTokenizer });
      // The current loop (turn 10) is protected besides.
      const expected = Array.from({ length: 10 - Math.max(keepRecent, 1) }, (_, index) => `t${index + 1}`);
      expect(cleared(result)).toEqual(expected);
    }
  });

  test("never clears the results of excluded tools", async () => {
    const items = history(10, (turn) => (turn % 3 === 0 ? "memory" : "read_file"));
    const result = await createPipeline({ plugins: [plugin({ keepRecent: 0, clearAtLeast: 0, excludeTools: ["memory"] }, 100)] }).build(items, { tokenizer: wordTokenizer });
    expect(cleared(result)).toEqual(["t1", "t2", "t4", "t5", "t7", "t8"]);
  });

  test("once due, clears at least clearAtLeast tokens, even when a little would do", async () => {
    const items = history(10);
    const usage = (await createPipeline({ plugins: [plugin()] }).build(items, { tokenizer: wordTokenizer, compression: false })).report.compression!.usageBefore;
    // The trigger point just under the usage, and a target a hair below it: the goal is one small step.
    const tokenBudget = Math.floor((usage - 5) / 0.8);
    const result = await createPipeline({ plugins: [plugin({ keepRecent: 0, clearAtLeast: 450, placeholder: "[cleared]" }, tokenBudget, { triggerThreshold: 0.8, targetUsage: 0.79 })] }).build(items, { tokenizer: wordTokenizer });
    const compression = result.report.compression!;
    expect(compression.triggered).toBe(true);
    expect(compression.goal).toBeLessThan(100);
    const saved = result.report.entries.filter((entry) => entry.decision === "cleared").reduce((sum, entry) => sum + entry.tokensSaved!, 0);
    expect(saved).toBeGreaterThanOrEqual(450);
    // ...oldest first, and no more results than it takes (97 tokens each).
    expect(cleared(result)).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    expect(compression.strategies[0]!.tokensSaved).toBe(saved);
  });

  test("leaves results that already read as placeholders", async () => {
    const items = history(6);
    const stored = items.find((item) => item.id === "t1") as ItemOf<"tool-result">;
    Object.assign(stored, { output: "[Tool result cleared to save context (100 tokens). Call read_file again if you need it.] and some more words here" });
    const result = await createPipeline({ plugins: [plugin({ keepRecent: 0, clearAtLeast: 0 }, 100)] }).build(items, { tokenizer: wordTokenizer });
    expect(cleared(result)).not.toContain("t1");
    expect(cleared(result).length).toBeGreaterThan(0);
  });

  test("the prefix stays stable as the history grows: the cleared set only grows, in batches", async () => {
    // Results are most of each turn, so clearing alone can keep up with the growth.
    // The short placeholder of before offloading: the test is about batches, not the placeholder's size.
    const pipeline = createPipeline({ plugins: [plugin({ keepRecent: 2, clearAtLeast: 1000, placeholder: SHORT_PLACEHOLDER }, 4000)] });
    const turnOf = (turn: number) => toolTurn(turn, "read_file", 300);
    // Each build ends on the user's new message, as a request does.
    const items: ItemInput[] = [turnOf(1)[0]!];
    let previous: string[] = [];
    let previousGoal = 0;
    let breaks = 0;
    let clearingBuilds = 0;
    // Short of the point where clearing every old result no longer meets the goal (about turn 32).
    const turns = 30;
    for (let turn = 1; turn <= turns; turn++) {
      items.push(...turnOf(turn).slice(1), turnOf(turn + 1)[0]!);
      const result = await pipeline.build(items, { tokenizer: wordTokenizer });
      const now = cleared(result);
      const goal = result.report.compression!.goal;
      // Only grows: what was cleared stays cleared.
      expect(now.slice(0, previous.length)).toEqual(previous);
      if (now.length > 0) clearingBuilds++;
      if (result.report.cache.breaksAt !== undefined) {
        breaks++;
        // The request changes only where the goal took a step and the cleared set grew with it.
        expect(goal).toBeGreaterThan(previousGoal);
        expect(now.length).toBeGreaterThan(previous.length);
      } else expect(now).toEqual(previous);
      previous = now;
      previousGoal = goal;
    }
    expect(clearingBuilds).toBeGreaterThan(turns / 2);
    // Most turns keep the whole previous request as the prefix.
    expect(breaks).toBeGreaterThan(1);
    expect(breaks).toBeLessThan(turns / 3);
  });

  test("a reused pipeline builds what a new one would", async () => {
    const reused = createPipeline({ plugins: [plugin({ keepRecent: 2, clearAtLeast: 300 }, 2000)] });
    const items: ItemInput[] = [];
    for (let turn = 1; turn <= 25; turn++) {
      items.push(...toolTurn(turn));
      const again = await reused.build(items, { tokenizer: wordTokenizer });
      const fresh = await createPipeline({ plugins: [plugin({ keepRecent: 2, clearAtLeast: 300 }, 2000)] }).build(items, { tokenizer: wordTokenizer });
      expect(again.request).toEqual(fresh.request);
    }
  });

  test("the current loop's results stay, however old the goal wants to go", async () => {
    const items: ItemInput[] = [{ id: "u1", type: "user", text: "do it" }];
    for (let round = 1; round <= 6; round++) {
      items.push({ id: `c${round}`, type: "assistant", text: "", toolCalls: [{ id: `call_${round}`, name: "run", arguments: "{}" }] });
      items.push({ id: `t${round}`, type: "tool-result", callId: `call_${round}`, toolName: "run", output: words(100, "o") });
    }
    const result = await createPipeline({ plugins: [plugin({ keepRecent: 0, clearAtLeast: 0 }, 100)] }).build(items, { tokenizer: wordTokenizer });
    expect(cleared(result)).toEqual([]);
    expect(result.report.compression).toMatchObject({ triggered: true, ran: false });
  });
  test("leaves a result whose placeholder would save less than minSaving tokens (default 50)", async () => {
    const sizes = [30, 60, 70, 120, 40, 100];
    const items = sizes.flatMap((size, index) => toolTurn(index + 1, "run_tests", size));
    const build = (settings: Omit<ClearToolResultsSettings, "type">) =>
      createPipeline({ plugins: [plugin({ keepRecent: 0, clearAtLeast: 0, placeholder: SHORT_PLACEHOLDER, ...settings }, 50)] }).build(items, { tokenizer: wordTokenizer });
    // What clearing each result saves, from a build that clears every one it can (the newest turn, the current loop, is protected).
    const savings = (await build({ minSaving: 1 })).report.entries.filter((entry) => entry.decision === "cleared").map((entry) => ({ id: entry.id, saving: entry.tokensSaved! }));
    expect(savings.map(({ id }) => id)).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    const clearedAt = (minimum: number) => savings.filter(({ saving }) => saving >= minimum).map(({ id }) => id);
    // Some results save less than 50 and some more, so the default has something to leave.
    expect(clearedAt(50).length).toBeGreaterThan(0);
    expect(clearedAt(50).length).toBeLessThan(savings.length);
    expect(cleared(await build({}))).toEqual(clearedAt(50));
    expect(cleared(await build({ minSaving: 80 }))).toEqual(clearedAt(80));
    // A short result that stays is sent whole.
    const result = await build({});
    expect(result.report.entries.find((entry) => entry.id === "t1")?.decision).toBe("kept");
    expect(result.request.messages.find((message) => message.role === "tool" && message.tool_call_id === "call_1")?.content).toBe(words(30, "w"));
  });

  test("offloads each cleared result's original under the handle its placeholder names", async () => {
    const items = history(10);
    const result = await createPipeline({ plugins: [plugin({ clearAtLeast: 0 })] }).build(items, { tokenizer: wordTokenizer });
    const ids = cleared(result);
    expect(ids.length).toBeGreaterThan(0);
    const output = words(100, "w");
    const handle = contentHandle(output);
    // Every cleared result holds the same text here: one handle, kept once.
    expect(result.report.offloaded).toEqual([{ handle, itemId: ids[0], text: output, chars: output.length }]);
    for (const id of ids) expect(result.report.entries.find((entry) => entry.id === id)?.reason).toBe(`old tool result replaced by a placeholder (100 tokens); its call stays paired with it, its original kept whole as ${handle}`);
  });

  test("a result truncate-tool-results cut is offloaded whole, under the handle of its whole output", async () => {
    // Each result is a different 3,000 words: over the per-result cap of a 4,000-token budget, so cut first.
    const items = Array.from({ length: 6 }, (_, index) => toolTurn(index + 1, "read_file", 3000)).flat();
    const outputs = new Map<string, string>();
    for (const item of items) if (item.type === "tool-result") outputs.set(item.id!, `${item.id} ${item.output}`);
    const distinct = items.map((item) => (item.type === "tool-result" ? { ...item, output: outputs.get(item.id!)! } : item));
    const chain = new CompressionPlugin({ strategies: ["truncate-tool-results", { type: "clear-tool-results", clearAtLeast: 0 }], tokenBudget: 4000, minRecentMessages: 0 });
    const result = await createPipeline({ plugins: [chain] }).build(distinct, { tokenizer: wordTokenizer });
    const ids = cleared(result);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const output = outputs.get(id)!;
      const handle = contentHandle(output);
      expect(result.report.offloaded.find((offloaded) => offloaded.itemId === id)).toEqual({ handle, itemId: id, text: output, chars: output.length });
      expect(result.report.entries.find((entry) => entry.id === id)?.reason).toContain(`its original kept whole as ${handle}`);
    }
  });

  test("a placeholder without {handle} offloads nothing, as before", async () => {
    const result = await createPipeline({ plugins: [plugin({ clearAtLeast: 0, placeholder: SHORT_PLACEHOLDER })] }).build(history(10), { tokenizer: wordTokenizer });
    expect(cleared(result).length).toBeGreaterThan(0);
    expect(result.report.offloaded).toEqual([]);
  });

  test("minSaving must be a positive integer", () => {
    expect(() => plugin({ minSaving: 0 })).toThrow(/minSaving/);
  });
});
