import { createPipeline, type Item, type ItemInput, PluginError, parseItems } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import { fingerprintOf } from "../summaries/fingerprint.js";
import type { SummarizerRequest } from "../summaries/summarizer.js";
import { SUMMARIZER_FAILED, SummarizerError } from "../summaries/summarizer-error.js";
import type { SummarizeSettings } from "./summarize.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

function chat(turns: number, from = 1, size = 20): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = from; turn < from + turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: `topic${turn} ${words(size - 1, "q")}` });
    items.push({ id: `a${turn}`, type: "assistant", text: `reply${turn} ${words(size - 1, "r")}` });
  }
  return items;
}

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

/** A deterministic summarizer: the first word of every message it is given, and the calls it got. */
function firstWords() {
  const calls: SummarizerRequest[] = [];
  const summarizer = (request: SummarizerRequest) => {
    calls.push(request);
    return request.items.map((item) => ("text" in item ? item.text.split(" ")[0] : item.id)).join(" ");
  };
  return { calls, summarizer };
}

function plugin(settings: Omit<SummarizeSettings, "type">, tokenBudget = 600) {
  return new CompressionPlugin({ strategies: [{ type: "summarize", maxSummaryTokens: 50, now: () => NOW, ...settings }], tokenBudget, minRecentMessages: 4 });
}

const build = (plugins: CompressionPlugin[], items: ReadonlyArray<ItemInput>, options: { summaries?: never[] | ReadonlyArray<import("../summaries/summary-record.js").SummaryRecord> } = {}) =>
  createPipeline({ plugins }).build(items, { tokenizer: wordTokenizer, ...options });

describe("summarize", () => {
  test("makes a record of the oldest turns and sends the summary in their place", async () => {
    const items = chat(15);
    const { calls, summarizer } = firstWords();
    const result = await build([plugin({ summarizer })], items);
    expect(calls).toHaveLength(1);
    const [record] = result.report.compression!.records;
    expect(record).toBeDefined();
    const covered = record!.coveredIds;
    // The oldest messages, in order, whole turns.
    expect(covered).toEqual(items.slice(0, covered.length).map((item) => item.id));
    expect(covered.length % 2).toBe(0);
    expect(calls[0]!.items.map((item) => item.id)).toEqual(covered);
    expect(record).toEqual({
      id: expect.stringMatching(/^summary_/),
      summary: calls[0]!.items.map((item) => (item as Item & { text: string }).text.split(" ")[0]).join(" "),
      coveredIds: covered,
      startId: covered[0],
      sourceTokenCount: covered.length * 20,
      createdAt: new Date(NOW).toISOString(),
      fingerprint: fingerprintOf(parseItems(items.slice(0, covered.length))),
    });
    expect(result.report.compression!.summarizer).toEqual({ outcome: "made", coveredCount: covered.length });
    // The request: the summary first, then what it does not cover.
    expect(result.request.messages[0]).toEqual({ role: "system", content: `[Previous conversation summary (${covered.length} messages compressed)]\n\n${record!.summary}` });
    expect(result.includedIds).toEqual(items.slice(covered.length).map((item) => item.id));
    for (const id of covered) expect(result.report.entries.find((entry) => entry.id === id)).toMatchObject({ decision: "summarized", plugin: "summarize", relatedId: record!.id, tokensSaved: 20 });
    expect(result.report.synthesized.map((entry) => entry.id)).toContain(record!.id);
    const compression = result.report.compression!;
    expect(compression.usageAfter).toBeLessThanOrEqual(compression.triggerAt!);
    // The summarizer was told the limit and given a prompt with the transcript.
    expect(calls[0]!.maxTokens).toBe(50);
    expect(calls[0]!.previousSummary).toBeUndefined();
    expect(calls[0]!.prompt).toContain(calls[0]!.transcript);
    expect(calls[0]!.transcript).toContain("[user] topic1");
  });

  test("a persisted record is applied in later builds without calling the summarizer", async () => {
    const items = chat(15);
    const first = firstWords();
    const made = await build([plugin({ summarizer: first.summarizer })], items);
    const records = made.report.compression!.records;
    // A new process: a new plugin and pipeline, the record from storage.
    const later = firstWords();
    const stored = JSON.parse(JSON.stringify(records));
    const applied = await build([plugin({ summarizer: later.summarizer })], [...items, ...chat(1, 16)], { summaries: stored });
    expect(later.calls).toHaveLength(0);
    expect(applied.report.compression).toMatchObject({ appliedSummaries: [records[0]!.id], skippedSummaries: [], records: [], triggered: false });
    expect(applied.report.compression!.summarizer).toEqual({ outcome: "reused", coveredCount: records[0]!.coveredIds.length });
    expect(applied.request.messages[0]).toEqual(made.request.messages[0]);
    for (const id of records[0]!.coveredIds) expect(applied.report.entries.find((entry) => entry.id === id)).toMatchObject({ decision: "summarized", plugin: "apply-summaries", relatedId: records[0]!.id });
  });

  test('"made" on every build that hands a new record over, even when the pipeline remembered the summary; "reused" once it is passed back', async () => {
    const items = chat(15);
    const { calls, summarizer } = firstWords();
    const pipeline = createPipeline({ plugins: [plugin({ summarizer })] });
    // An application (or the CLI comparing with the previous turn) that builds again before persisting.
    const first = await pipeline.build(items, { tokenizer: wordTokenizer });
    const again = await pipeline.build(items, { tokenizer: wordTokenizer });
    expect(calls).toHaveLength(1);
    const records = first.report.compression!.records;
    expect(records).toHaveLength(1);
    const coveredCount = records[0]!.coveredIds.length;
    expect(first.report.compression!.summarizer).toEqual({ outcome: "made", coveredCount });
    expect(again.report.compression!.records).toEqual(records);
    expect(again.report.compression!.summarizer).toEqual({ outcome: "made", coveredCount });
    const passedBack = await pipeline.build(items, { tokenizer: wordTokenizer, summaries: records });
    expect(passedBack.report.compression).toMatchObject({ appliedSummaries: [records[0]!.id], records: [], summarizer: { outcome: "reused", coveredCount } });
    expect(calls).toHaveLength(1);
  });

  test("rolling: the next summary takes in the previous one's messages, and its text as previousSummary", async () => {
    const { calls, summarizer } = firstWords();
    const pipeline = createPipeline({ plugins: [plugin({ summarizer })] });
    const first = await pipeline.build(chat(15), { tokenizer: wordTokenizer });
    const [older] = first.report.compression!.records;
    const grown = chat(30);
    const second = await pipeline.build(grown, { tokenizer: wordTokenizer, summaries: [older!] });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.previousSummary).toBe(older!.summary);
    expect(calls[1]!.prompt).toContain(older!.summary);
    // The summarizer gets only the new messages; the record covers the older summary's too.
    const [newer] = second.report.compression!.records;
    expect(newer!.coveredIds.slice(0, older!.coveredIds.length)).toEqual(older!.coveredIds);
    expect(newer!.coveredIds).toEqual(grown.slice(0, newer!.coveredIds.length).map((item) => item.id));
    expect(calls[1]!.items.map((item) => item.id)).toEqual(newer!.coveredIds.slice(older!.coveredIds.length));
    expect(newer!.startId).toBe("u1");
    expect(newer!.sourceTokenCount).toBe(newer!.coveredIds.length * 20);
    // The newer summary took the older one in: the build starts over with the newer record applied,
    // as the next build will, so the older one is superseded and its messages name the newer.
    expect(second.report.entries.find((entry) => entry.id === older!.startId)).toMatchObject({ decision: "summarized", relatedId: newer!.id, plugin: "summarize" });
    expect(second.report.synthesized.map((entry) => entry.id)).toContain(newer!.id);
    expect(second.report.synthesized.map((entry) => entry.id)).not.toContain(older!.id);
    expect(second.request.messages.filter((message) => message.role === "system")).toHaveLength(1);
    // Both records handed back: the newer one stands in for all, the older is superseded without a warning.
    const third = await createPipeline({ plugins: [plugin({ summarizer })] }).build(grown, { tokenizer: wordTokenizer, summaries: [older!, newer!] });
    expect(calls).toHaveLength(2);
    expect(third.report.compression).toMatchObject({ appliedSummaries: [newer!.id], skippedSummaries: [] });
    expect(third.report.warnings).toEqual([]);
    expect(third.request.messages[0]!.content).toContain(newer!.summary);
  });

  describe("a summarizer that fails leaves the history intact", () => {
    const failures: Array<[string, "threw" | "timed-out" | "empty", () => Promise<string> | string]> = [
      ["throws", "threw", () => { throw new Error("model unavailable"); }],
      ["rejects", "threw", () => Promise.reject(new Error("model unavailable"))],
      ["never answers", "timed-out", () => new Promise<string>(() => {})],
      ["returns empty text", "empty", () => ""],
      ["returns whitespace", "empty", () => Promise.resolve("  \n\t ")],
    ];
    for (const [what, outcome, summarizer] of failures) {
      test(`a summarizer that ${what}: outcome "${outcome}", a warning, every message sent`, async () => {
        const items = chat(15);
        const before = structuredClone(items);
        const result = await build([plugin({ summarizer, timeoutMs: 20 })], items);
        expect(items).toEqual(before);
        expect(result.includedIds).toEqual(items.map((item) => item.id));
        expect(result.report.entries.every((entry) => entry.decision === "kept")).toBe(true);
        const compression = result.report.compression!;
        expect(compression.summarizer).toMatchObject({ outcome, error: expect.any(String) });
        expect(compression.records).toEqual([]);
        expect(compression.ran).toBe(false);
        expect(result.report.warnings.some((warning) => warning.includes(`summarizer failed (${outcome}`))).toBe(true);
      });
    }

    test('onFailure "throw" fails the build with a SummarizerError naming the messages', async () => {
      const items = chat(15);
      const failing = plugin({ summarizer: () => { throw new Error("model unavailable"); }, onFailure: "throw" });
      const error = await build([failing], items).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SummarizerError);
      expect(error).not.toBeInstanceOf(PluginError);
      const summarizerError = error as SummarizerError;
      expect(summarizerError.code).toBe(SUMMARIZER_FAILED);
      expect(summarizerError.outcome).toBe("threw");
      expect(summarizerError.coveredIds.length).toBeGreaterThan(0);
      expect(summarizerError.coveredIds).toEqual(items.slice(0, summarizerError.coveredIds.length).map((item) => item.id));
      expect(summarizerError.message).toContain("model unavailable");
      expect((summarizerError.cause as Error).message).toBe("model unavailable");
    });

    test('onFailure "throw" with a summarizer that times out', async () => {
      const error = await build([plugin({ summarizer: () => new Promise<string>(() => {}), onFailure: "throw", timeoutMs: 10 })], chat(15)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SummarizerError);
      expect((error as SummarizerError).outcome).toBe("timed-out");
    });

    test("the summarizer's AbortSignal is aborted when it runs out of time", async () => {
      const signals: AbortSignal[] = [];
      const summarizer = (request: SummarizerRequest) => {
        signals.push(request.signal);
        return new Promise<string>(() => {});
      };
      const result = await build([plugin({ summarizer, timeoutMs: 10 })], chat(15));
      expect(result.report.compression!.summarizer?.outcome).toBe("timed-out");
      expect(signals.length).toBeGreaterThan(0);
      for (const signal of signals) expect(signal.aborted).toBe(true);
    });

    test("a summarizer that answers in time gets a signal that is not aborted", async () => {
      const signals: AbortSignal[] = [];
      await build([plugin({ summarizer: (request) => {
            signals.push(request.signal);
            return "short summary";
          }, timeoutMs: 1000 })], chat(15));
      expect(signals).toHaveLength(1);
      expect(signals[0]!.aborted).toBe(false);
    });

    test("a failed summarizer leaves the work to the next strategy in the chain", async () => {
      const items = chat(15);
      const chain = new CompressionPlugin({
        strategies: [{ type: "summarize", summarizer: () => "", maxSummaryTokens: 50 }, "sliding-window"],
        tokenBudget: 600,
        minRecentMessages: 4,
      });
      const result = await build([chain], items);
      expect(result.report.compression!.summarizer?.outcome).toBe("empty");
      expect(result.report.compression!.strategies.map((strategy) => [strategy.name, strategy.ran, strategy.tokensSaved > 0])).toEqual([
        ["summarize", true, false],
        ["sliding-window", true, true],
      ]);
      expect(result.report.entries.find((entry) => entry.id === "u1")).toMatchObject({ decision: "dropped", plugin: "sliding-window" });
    });
  });
});
