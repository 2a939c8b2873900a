import { estimatingTokenizer, type ItemInput, PluginOptionsError } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPipeline } from "./compression-pipeline.js";
import type { SummarizerRequest } from "./summaries/summarizer.js";

/** Turns of a user question, a tool call, a long result and an answer; then one open question. */
function history(turns: number): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = 0; turn < turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: `question ${turn} about the build` });
    items.push({ id: `a${turn}`, type: "assistant", text: "", toolCalls: [{ id: `c${turn}`, name: "read_log", arguments: `{"n":${turn}}` }] });
    items.push({ id: `t${turn}`, type: "tool-result", callId: `c${turn}`, toolName: "read_log", output: "line ".repeat(60) });
    items.push({ id: `r${turn}`, type: "assistant", text: `answer ${turn} is in the log` });
  }
  return items;
}

const listWords = (request: SummarizerRequest) => request.items.map((item) => item.id).join(" ");

describe("CompressionPipeline (the standalone API for a tool loop that keeps its own message list)", () => {
  test("getUsage counts the system prompt, the tools and the messages against the budget, 128,000 by default", () => {
    const bare = new CompressionPipeline({ strategies: ["sliding-window"], tokenizer: wordTokenizer });
    const dressed = new CompressionPipeline({
      strategies: ["sliding-window"],
      tokenizer: wordTokenizer,
      system: "You are a careful build engineer.",
      tools: [{ name: "read_log", description: "Reads the build log.", parameters: { type: "object" } }],
    });
    const items = history(2);
    const usage = bare.getUsage(items);
    expect(usage.tokenBudget).toBe(128_000);
    expect(usage.usagePercent).toBeCloseTo(usage.tokens / 128_000, 10);
    expect(usage.exact).toBe(true);
    expect(dressed.getUsage(items).tokens).toBeGreaterThan(usage.tokens + wordTokenizer.count("You are a careful build engineer."));
    expect(new CompressionPipeline({ strategies: ["sliding-window"] }).getUsage(items).exact).toBe(estimatingTokenizer.exact);
  });

  test("shouldCompress says whether the messages are over the trigger point", () => {
    const compression = new CompressionPipeline({ strategies: ["sliding-window"], tokenizer: wordTokenizer, tokenBudget: 2000, minRecentMessages: 2 });
    const small = history(2);
    const large = history(30);
    expect(compression.getUsage(small).usagePercent).toBeLessThan(0.8);
    expect(compression.shouldCompress(small)).toBe(false);
    expect(compression.getUsage(large).usagePercent).toBeGreaterThan(0.8);
    expect(compression.shouldCompress(large)).toBe(true);
  });

  test("compressIfNeeded leaves messages under the trigger alone and brings larger ones between target and trigger", async () => {
    const compression = new CompressionPipeline({ strategies: ["sliding-window"], tokenizer: wordTokenizer, tokenBudget: 2000, minRecentMessages: 2 });
    const small = await compression.compressIfNeeded(history(2));
    expect(small.compressed).toBe(false);
    expect(small.items.map((item) => item.id)).toEqual(history(2).map((item) => item.id));

    const large = [...history(30), { id: "now", type: "user", text: "What failed?" } satisfies ItemInput];
    const done = await compression.compressIfNeeded(large);
    expect(done.compressed).toBe(true);
    expect(done.usage.usagePercent).toBeGreaterThan(0.5);
    expect(done.usage.usagePercent).toBeLessThanOrEqual(0.8);
    expect(done.items.at(-1)!.id).toBe("now");
    expect(done.report.strategies).toEqual([expect.objectContaining({ name: "sliding-window", ran: true })]);
    // Whole turns go: no result without its call is left.
    const ids = new Set(done.items.map((item) => item.id));
    for (const item of done.items) if (item.type === "tool-result") expect(ids.has(`a${item.callId.slice(1)}`)).toBe(true);
  });

  test("compressHistoricalMessages never touches the current loop, however long, and says where it now starts", async () => {
    const compression = new CompressionPipeline({ strategies: ["clear-tool-results", "sliding-window"], tokenizer: wordTokenizer, tokenBudget: 2500, minRecentMessages: 0 });
    const past = history(25);
    // The loop: a user message and twelve tool rounds, each with a long result.
    const loop: ItemInput[] = [{ id: "loop-user", type: "user", text: "Fix the build." }];
    for (let round = 0; round < 12; round++) {
      loop.push({ id: `loop-a${round}`, type: "assistant", text: "", toolCalls: [{ id: `lc${round}`, name: "run", arguments: "{}" }] });
      loop.push({ id: `loop-t${round}`, type: "tool-result", callId: `lc${round}`, toolName: "run", output: "out ".repeat(40) });
    }
    const outcome = await compression.compressHistoricalMessages([...past, ...loop], past.length);
    expect(outcome.compressed).toBe(true);
    const loopOut = outcome.items.slice(outcome.newLoopStartIndex);
    expect(loopOut.map((item) => item.id)).toEqual(loop.map((item) => item.id));
    expect(loopOut.filter((item) => item.type === "tool-result").every((item) => item.output === "out ".repeat(40))).toBe(true);
    expect(outcome.newLoopStartIndex).toBeLessThan(past.length);
  });

  test("a history a store wrote twice or edited is read as build() reads it: counted once, never refused", async () => {
    const compression = new CompressionPipeline({ strategies: ["sliding-window"], tokenizer: wordTokenizer, tokenBudget: 2500, minRecentMessages: 0 });
    const past = history(3);
    const stored: ItemInput[] = [...past, past[0]!, { ...past[4]!, text: "question 1, edited" } as ItemInput];
    expect(compression.getUsage(stored).tokens).toBe(compression.getUsage([...past.slice(0, 4), { ...past[4]!, text: "question 1, edited" } as ItemInput, ...past.slice(5)]).tokens);
    const loop: ItemInput[] = [{ id: "loop-user", type: "user", text: "Fix the build." }];
    const outcome = await compression.compressHistoricalMessages([...stored, ...loop], stored.length);
    expect(outcome.items.slice(outcome.newLoopStartIndex).map((item) => item.id)).toEqual(["loop-user"]);
    expect(outcome.items.filter((item) => item.id === "u1").map((item) => item.type === "user" && item.text)).toEqual(["question 1, edited"]);
  });

  test("a summary record comes back to persist, and passing it back applies it without calling the summarizer", async () => {
    let calls = 0;
    const compression = new CompressionPipeline({
      strategies: ["summarize"],
      summarizer: (request) => {
        calls++;
        return listWords(request);
      },
      tokenizer: wordTokenizer,
      tokenBudget: 2000,
      minRecentMessages: 2,
    });
    const items = [...history(30), { id: "now", type: "user", text: "What failed?" } satisfies ItemInput];
    const first = await compression.compressIfNeeded(items);
    expect(calls).toBe(1);
    expect(first.records).toHaveLength(1);
    const record = first.records[0]!;
    expect(first.items[0]).toMatchObject({ id: record.id, type: "summary" });

    const again = await compression.compressIfNeeded([...items, { id: "more", type: "assistant", text: "Looking." }], { summaries: first.records });
    expect(calls).toBe(1);
    expect(again.report.appliedSummaries).toEqual([record.id]);
    expect(again.items[0]).toMatchObject({ id: record.id, type: "summary" });
    expect(again.items.some((item) => record.coveredIds.includes(item.id))).toBe(false);
  });

  test("a loop start outside the messages is refused with a typed error", async () => {
    const compression = new CompressionPipeline({ strategies: ["sliding-window"] });
    await expect(compression.compressHistoricalMessages(history(1), 9)).rejects.toThrow(PluginOptionsError);
    await expect(compression.compressHistoricalMessages(history(1), 1.5)).rejects.toThrow(/loopStartIndex: must be an integer from 0 to 4/);
  });
});
