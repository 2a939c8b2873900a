import { createPipeline, type ItemInput, PluginError, PluginOptionsError } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin, type CompressionPluginOptions } from "./compression-plugin.js";
import type { CompressionStrategy } from "./compression-strategy.js";
import type { SummarizerRequest } from "./summaries/summarizer.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

/** Plain turns of 2 × 20 words: 48 tokens a turn with the message overhead, 3 for the request. */
function chat(turns: number, from = 1): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = from; turn < from + turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: words(20, "q") });
    items.push({ id: `a${turn}`, type: "assistant", text: words(20, "r") });
  }
  return items;
}

/** Agent turns whose tool results are most of their cost. */
function toolChat(turns: number): ItemInput[] {
  return Array.from({ length: turns }, (_, index): ItemInput[] => {
    const turn = index + 1;
    return [
      { id: `u${turn}`, type: "user", text: `question ${turn}` },
      { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read", arguments: "{}" }] },
      { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read", output: words(100, "w") },
      { id: `a${turn}`, type: "assistant", text: `answer ${turn}` },
    ];
  }).flat();
}

const pipelineWith = (options: CompressionPluginOptions) => createPipeline({ plugins: [new CompressionPlugin(options)] });

describe("hysteresis: trigger and target", () => {
  test("no compression under the trigger point", async () => {
    const items = chat(8); // 387 tokens
    const result = await pipelineWith({ strategies: ["sliding-window"], tokenBudget: 484 }).build(items, { tokenizer: wordTokenizer });
    expect(result.report.compression).toMatchObject({ usageBefore: 387, usageAfter: 387, triggerAt: 387, targetAt: 242, triggered: false, goal: 0, ran: false });
    expect(result.includedIds).toHaveLength(16);
  });

  test("once triggered, the request lands between the target and the trigger", async () => {
    for (const [tokenBudget, triggerThreshold, targetUsage] of [
      [1000, 0.8, 0.5],
      [700, 0.9, 0.3],
      [1500, 0.6, 0.4],
      [900, 0.8, 0.6],
    ] as const) {
      const result = await pipelineWith({ strategies: ["sliding-window"], tokenBudget, triggerThreshold, targetUsage, minRecentMessages: 0 }).build(chat(40), { tokenizer: wordTokenizer });
      const compression = result.report.compression!;
      expect(compression.triggered).toBe(true);
      expect(compression.usageAfter).toBeGreaterThan(targetUsage * tokenBudget);
      expect(compression.usageAfter).toBeLessThanOrEqual(triggerThreshold * tokenBudget);
      const step = (triggerThreshold - targetUsage) * tokenBudget;
      expect(compression.goal % Math.round(step)).toBe(0);
    }
  });

  test("the cut moves only once the history has grown by (trigger − target) × budget", async () => {
    const budget = 1000;
    const step = 300; // (0.8 − 0.5) × budget
    const pipeline = pipelineWith({ strategies: ["sliding-window"], tokenBudget: budget, minRecentMessages: 2 });
    const items: ItemInput[] = [{ id: "u1", type: "user", text: words(20, "q") }];
    let previousCut: string | undefined;
    let previousGoal = 0;
    let moves = 0;
    let breaks = 0;
    for (let turn = 1; turn <= 60; turn++) {
      items.push({ id: `a${turn}`, type: "assistant", text: words(20, "r") }, { id: `u${turn + 1}`, type: "user", text: words(20, "q") });
      const result = await pipeline.build(items, { tokenizer: wordTokenizer });
      const compression = result.report.compression!;
      expect(compression.usageAfter).toBeLessThanOrEqual(0.8 * budget);
      const cut = result.includedIds[0];
      if (cut !== previousCut && previousCut !== undefined) {
        moves++;
        // Each move is a whole step of the goal, as the history grew by about a step since the last.
        if (previousGoal > 0) expect(compression.goal - previousGoal).toBe(step);
        expect(compression.usageAfter).toBeGreaterThan(0.5 * budget);
      } else expect(compression.goal).toBe(previousGoal);
      if (turn > 1 && result.report.cache.breaksAt !== undefined) breaks++;
      previousCut = cut;
      previousGoal = compression.goal;
    }
    // 60 turns of 48 tokens: about 2,900 tokens of growth, so a handful of moves of 300 and a prefix kept in between.
    expect(moves).toBeGreaterThanOrEqual(6);
    expect(moves).toBeLessThanOrEqual(9);
    expect(breaks).toBe(moves);
  });

  test("without tokenBudget, the budget is the build's maxTokens minus reserveOutputTokens", async () => {
    const pipeline = pipelineWith({ strategies: ["sliding-window"], minRecentMessages: 2 });
    const result = await pipeline.build(chat(40), { tokenizer: wordTokenizer, maxTokens: 1200, reserveOutputTokens: 200 });
    expect(result.report.compression).toMatchObject({ budget: 1000, triggerAt: 800, targetAt: 500, triggered: true });
    expect(result.report.compression!.usageAfter).toBeLessThanOrEqual(800);
    // The plugin's tokenBudget wins over the build's.
    const fixed = await pipelineWith({ strategies: ["sliding-window"], tokenBudget: 600, minRecentMessages: 2 }).build(chat(40), { tokenizer: wordTokenizer, maxTokens: 1200 });
    expect(fixed.report.compression!.budget).toBe(600);
  });

  test("without any budget no strategy runs", async () => {
    const result = await pipelineWith({ strategies: ["sliding-window"] }).build(chat(40), { tokenizer: wordTokenizer });
    expect(result.report.compression).toMatchObject({ budget: undefined, triggerAt: undefined, triggered: false, ran: false });
    expect(result.includedIds).toHaveLength(80);
  });

  test("the system prompt and tools count toward the usage", async () => {
    const bare = await pipelineWith({ strategies: ["sliding-window"], tokenBudget: 10_000 }).build(chat(2), { tokenizer: wordTokenizer });
    const dressed = await pipelineWith({ strategies: ["sliding-window"], tokenBudget: 10_000 }).build(chat(2), { tokenizer: wordTokenizer, system: words(50, "s") });
    expect(dressed.report.compression!.usageBefore - bare.report.compression!.usageBefore).toBe(54);
  });

  test("a per-build `compression` overrides the plugin's settings; false runs no strategy", async () => {
    const pipeline = pipelineWith({ strategies: ["sliding-window"], tokenBudget: 100_000, minRecentMessages: 2 });
    const overridden = await pipeline.build(chat(40), { tokenizer: wordTokenizer, compression: { tokenBudget: 1000, triggerThreshold: 0.6, targetUsage: 0.2, minRecentMessages: 30 } });
    expect(overridden.report.compression).toMatchObject({ budget: 1000, triggerAt: 600, targetAt: 200, triggered: true });
    // minRecentMessages 30 stops the window at 30 messages, above the target.
    expect(overridden.includedIds).toHaveLength(30);
    const off = await pipelineWith({ strategies: ["sliding-window"], tokenBudget: 500 }).build(chat(40), { tokenizer: wordTokenizer, compression: false });
    expect(off.includedIds).toHaveLength(80);
    expect(off.report.compression).toMatchObject({ triggered: false, ran: false, strategies: [{ name: "sliding-window", ran: false }] });
    // The next build without the option uses the plugin's settings again.
    const plain = await pipeline.build(chat(40), { tokenizer: wordTokenizer });
    expect(plain.report.compression!.budget).toBe(100_000);
  });
});

describe("chains", () => {
  const summarizer = (request: SummarizerRequest) => `summary of ${request.items.length} messages`;

  test("stops once the goal is met: later strategies do not run", async () => {
    const plugin = new CompressionPlugin({ strategies: ["clear-tool-results", "summarize", "sliding-window"], summarizer, tokenBudget: 2000, minRecentMessages: 4 });
    const called: string[] = [];
    const counting = (request: SummarizerRequest) => {
      called.push("summarize");
      return summarizer(request);
    };
    const chain = new CompressionPlugin({ strategies: ["clear-tool-results", { type: "summarize", summarizer: counting }, "sliding-window"], tokenBudget: 2000, minRecentMessages: 4 });
    for (const compression of [plugin, chain]) {
      const result = await createPipeline({ plugins: [compression] }).build(toolChat(14), { tokenizer: wordTokenizer });
      const report = result.report.compression!;
      expect(report.triggered).toBe(true);
      expect(report.strategies).toEqual([
        { name: "clear-tool-results", ran: true, itemsAffected: expect.any(Number), tokensSaved: report.usageBefore - report.usageAfter },
        { name: "summarize", ran: false, itemsAffected: 0, tokensSaved: 0 },
        { name: "sliding-window", ran: false, itemsAffected: 0, tokensSaved: 0 },
      ]);
      expect(report.strategies[0]!.tokensSaved).toBeGreaterThanOrEqual(report.goal);
      expect(result.report.entries.filter((entry) => entry.decision !== "kept").every((entry) => entry.plugin === "clear-tool-results")).toBe(true);
    }
    expect(called).toEqual([]);
  });

  test("a result cleared by one strategy and dropped by the next: each is credited with its own part", async () => {
    // Clearing every old result is not enough for this budget, so the sliding window then drops the
    // oldest turns, cleared results and all.
    const chain = new CompressionPlugin({ strategies: [{ type: "clear-tool-results", keepRecent: 1, placeholder: "cleared {tool}" }, "sliding-window"], tokenBudget: 300, minRecentMessages: 2 });
    const result = await createPipeline({ plugins: [chain] }).build(toolChat(12), { tokenizer: wordTokenizer });
    const report = result.report.compression!;
    const t1 = result.report.entries.find((entry) => entry.id === "t1")!;
    expect(t1).toMatchObject({ decision: "dropped", plugin: "sliding-window", tokens: 100, tokensSaved: 100 });
    expect(t1.history.map((event) => [event.decision, event.plugin])).toContainEqual(["cleared", "clear-tool-results"]);
    // The placeholder, "cleared read", is 2 words: clearing took out 98, the drop the 2 that were left.
    expect(report.savings.filter((saving) => saving.id === "t1")).toEqual([
      { id: "t1", strategy: "clear-tool-results", tokensSaved: 98 },
      { id: "t1", strategy: "sliding-window", tokensSaved: 2 },
    ]);
    const byStrategy = (name: string) => report.savings.filter((saving) => saving.strategy === name).reduce((sum, saving) => sum + saving.tokensSaved, 0);
    expect(report.strategies.map((strategy) => [strategy.name, strategy.tokensSaved])).toEqual([
      ["clear-tool-results", byStrategy("clear-tool-results")],
      ["sliding-window", byStrategy("sliding-window")],
    ]);
    expect(byStrategy("clear-tool-results")).toBe(98 * report.strategies[0]!.itemsAffected);
    const saved = result.report.entries.reduce((sum, entry) => sum + (entry.tokensSaved ?? 0), 0);
    expect(byStrategy("clear-tool-results") + byStrategy("sliding-window")).toBe(saved);
  });

  test("each strategy takes what is left; tokensSaved per strategy adds up", async () => {
    // Results cleared to nothing much is not enough for a budget this small: summarize, then slide.
    const chain = new CompressionPlugin({
      strategies: [{ type: "clear-tool-results", keepRecent: 8 }, { type: "summarize", summarizer, maxSummaryTokens: 20 }, "sliding-window"],
      tokenBudget: 500,
      minRecentMessages: 2,
    });
    const result = await createPipeline({ plugins: [chain] }).build(toolChat(12), { tokenizer: wordTokenizer });
    const report = result.report.compression!;
    expect(report.records).toHaveLength(1);
    expect(report.strategies[1]).toMatchObject({ name: "summarize", ran: true, itemsAffected: report.records[0]!.coveredIds.length });
    expect(report.strategies[1]!.tokensSaved).toBeGreaterThan(0);
    // Each is credited with its own work, counted as the entries are: an item's savings add up to its
    // entry's tokensSaved, and the strategies' figures to all of them less what the summary costs.
    for (const entry of result.report.entries) {
      const savings = report.savings.filter((saving) => saving.id === entry.id);
      expect(savings.reduce((sum, saving) => sum + saving.tokensSaved, 0)).toBe(entry.tokensSaved ?? 0);
    }
    const saved = result.report.entries.reduce((sum, entry) => sum + (entry.tokensSaved ?? 0), 0);
    const summaries = result.report.synthesized.filter((entry) => entry.type === "summary").reduce((sum, entry) => sum + entry.tokens, 0);
    expect(report.strategies.reduce((sum, strategy) => sum + strategy.tokensSaved, 0)).toBe(saved - summaries);
    expect(report.usageAfter).toBeLessThanOrEqual(report.triggerAt!);
    // Once the summary exists the build starts over with it applied, as the next build will: what
    // it covers is summarized, not first cleared (the next build would not clear it either).
    const t1 = result.report.entries.find((entry) => entry.id === "t1")!;
    expect(t1.history.map((event) => [event.plugin, event.decision])).toEqual([["summarize", "summarized"]]);
    const events = result.report.entries.flatMap((entry) => entry.history.map((event) => event.plugin));
    expect(new Set(events).has("CompressionPlugin")).toBe(false);
  });

  test("the build that makes a summary sends what the next build, applying its record, sends", async () => {
    const chain = () =>
      new CompressionPlugin({
        strategies: [{ type: "clear-tool-results", keepRecent: 2, clearAtLeast: 0 }, { type: "summarize", summarizer, maxSummaryTokens: 20 }, "sliding-window"],
        tokenBudget: 500,
        minRecentMessages: 2,
      });
    const items = toolChat(12);
    const making = await createPipeline({ plugins: [chain()] }).build(items, { tokenizer: wordTokenizer });
    const records = making.report.compression!.records;
    expect(records).toHaveLength(1);
    const applying = await createPipeline({ plugins: [chain()] }).build(items, { tokenizer: wordTokenizer, summaries: records });
    expect(applying.report.compression!.records).toEqual([]);
    expect(applying.request).toEqual(making.request);
  });

  test("swapping strategies is configuration only", async () => {
    const items = toolChat(12);
    const outcomes = new Map<string, number>();
    for (const strategies of [["sliding-window"], ["priority"], ["clear-tool-results", "sliding-window"], ["summarize", "sliding-window"]] as const) {
      const result = await pipelineWith({ strategies: [...strategies], summarizer, tokenBudget: 800, minRecentMessages: 2 }).build(items, { tokenizer: wordTokenizer });
      expect(result.report.compression!.usageAfter).toBeLessThanOrEqual(640);
      outcomes.set(strategies.join(), result.request.messages.length);
    }
    expect(new Set(outcomes.values()).size).toBeGreaterThan(1);
  });

  test("a custom strategy object runs in the chain under its name", async () => {
    const dropOldestTurn: CompressionStrategy = {
      name: "drop-first",
      compress(items, context) {
        const first = context.turns.groups[0]!;
        if (context.isProtectedGroup(first.index)) return undefined;
        const ids = new Set(first.itemIds);
        for (const item of items) if (ids.has(item.id)) context.build.report.drop(item, "custom");
        return items.filter((item) => !ids.has(item.id));
      },
    };
    const result = await pipelineWith({ strategies: [dropOldestTurn, "sliding-window"], tokenBudget: 1000, minRecentMessages: 2 }).build(chat(40), { tokenizer: wordTokenizer });
    expect(result.report.entries.find((entry) => entry.id === "u1")).toMatchObject({ decision: "dropped", plugin: "drop-first" });
    expect(result.report.entries.find((entry) => entry.id === "u2")).toMatchObject({ decision: "dropped", plugin: "sliding-window" });
    expect(result.report.compression!.strategies[0]).toEqual({ name: "drop-first", ran: true, itemsAffected: 2, tokensSaved: 40 });
  });

  test("a strategy that removes a protected item fails the build with a PluginError naming it", async () => {
    const greedy: CompressionStrategy = { name: "greedy", compress: (items) => items.slice(0, -1) };
    const error = await pipelineWith({ strategies: [greedy], tokenBudget: 500, minRecentMessages: 2 })
      .build(chat(40), { tokenizer: wordTokenizer })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as PluginError).plugin).toBe("greedy");
    expect((error as Error).message).toContain('"a40"');
  });

  test("a strategy that edits a protected item fails the build too", async () => {
    const editor: CompressionStrategy = { name: "editor", compress: (items) => items.map((item, index) => (index === items.length - 1 ? { ...item } : item)) };
    const error = await pipelineWith({ strategies: [editor], tokenBudget: 500, minRecentMessages: 2 })
      .build(chat(40), { tokenizer: wordTokenizer })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as Error).message).toContain('"a40"');
  });
});

describe("options errors name the field", () => {
  const invalid: Array<[string, () => unknown, RegExp]> = [
    ["an unknown strategy name", () => new CompressionPlugin({ strategies: ["shrink" as "priority"] }), /strategies\[0\].*unknown strategy "shrink"/s],
    ["bad strategy settings", () => new CompressionPlugin({ strategies: ["sliding-window", { type: "clear-tool-results", keepRecent: -1 }] }), /strategies\[1\]\.keepRecent/],
    ["an unknown setting", () => new CompressionPlugin({ strategies: [{ type: "priority", weight: 2 } as never] }), /strategies\[0\]/],
    ["duplicate strategy names", () => new CompressionPlugin({ strategies: ["sliding-window", "clear-tool-results", "sliding-window"] }), /strategies\[2\].*"sliding-window"/s],
    ["a strategy named like the apply tap", () => new CompressionPlugin({ strategies: [{ type: "sliding-window", name: "apply-summaries" }] }), /strategies\[0\].*"apply-summaries"/s],
    ["summarize without a summarizer", () => new CompressionPlugin({ strategies: ["summarize"] }), /strategies\[0\].*summarizer/s],
    ["no strategies", () => new CompressionPlugin({ strategies: [] }), /strategies/],
    ["targetUsage above triggerThreshold", () => new CompressionPlugin({ strategies: ["sliding-window"], triggerThreshold: 0.5, targetUsage: 0.6 }), /targetUsage/],
    ["a threshold above 1", () => new CompressionPlugin({ strategies: ["sliding-window"], triggerThreshold: 1.5 }), /triggerThreshold/],
    ["a negative tokenBudget", () => new CompressionPlugin({ strategies: ["sliding-window"], tokenBudget: -5 }), /tokenBudget/],
  ];
  for (const [what, make, field] of invalid) {
    test(what, () => {
      let error: unknown;
      try {
        make();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(PluginOptionsError);
      expect((error as Error).message).toMatch(field);
    });
  }

  const record = { id: "s1", summary: "x", coveredIds: ["u1"], startId: "u1", sourceTokenCount: 3, createdAt: "2026-01-01T00:00:00.000Z" };
  const badBuilds: Array<[string, Record<string, unknown>, RegExp]> = [
    ["a record without coveredIds", { summaries: [{ ...record, coveredIds: [] }] }, /summaries.*0.*coveredIds/s],
    ["a record with a bad date", { summaries: [{ ...record, createdAt: "yesterday" }] }, /summaries.*createdAt/s],
    ["a record with an unknown field", { summaries: [{ ...record, covered: ["u1"] }] }, /summaries/],
    ["summaries that are not a list", { summaries: record }, /summaries/],
    ["a per-build targetUsage above the plugin's trigger", { compression: { targetUsage: 0.9 } }, /compression.*targetUsage/s],
    ["a per-build budget of 0", { compression: { tokenBudget: 0 } }, /compression.*tokenBudget/s],
    ["an unknown per-build field", { compression: { budget: 100 } }, /compression/],
  ];
  for (const [what, options, field] of badBuilds) {
    test(`build option: ${what}`, async () => {
      const error = await pipelineWith({ strategies: ["sliding-window"], tokenBudget: 1000 })
        .build(chat(2), { tokenizer: wordTokenizer, ...options })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PluginOptionsError);
      expect((error as Error).message).toMatch(field);
    });
  }
});
