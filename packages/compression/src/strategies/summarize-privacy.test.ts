// The summarizer is a model call: it gets what the build would send and nothing else. Messages left
// out (includeInContext: false, a user's filter) never reach it; what a redaction plugin rewrites
// reaches it rewritten, on whichever stage the plugin taps. Pinned turns are passed over.
import { createPipeline, importStoredMessages, type Item, type ItemInput, type PipelinePlugin, STAGE } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import type { SummarizerRequest } from "../summaries/summarizer.js";

const SSN = "078-05-1120";
const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

function chat(turns: number, size = 20): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: `topic${turn} ${words(size - 1, "q")}` });
    items.push({ id: `a${turn}`, type: "assistant", text: `reply${turn} ${words(size - 1, "r")}` });
  }
  return items;
}

/** A summarizer that records what it was given and repeats every SSN-like text in it: a leak would show. */
function recording() {
  const calls: SummarizerRequest[] = [];
  const summarizer = (request: SummarizerRequest) => {
    calls.push(request);
    const found = request.prompt.match(/\d{3}-\d{2}-\d{4}|\[SSN\]/g) ?? [];
    return `Summary of ${request.items.length} messages. ${found.join(" ")}`.trim();
  };
  return { calls, summarizer };
}

function compression(summarizer: (request: SummarizerRequest) => string): CompressionPlugin {
  return new CompressionPlugin({ strategies: [{ type: "summarize", maxSummaryTokens: 50, now: () => NOW, summarizer }], tokenBudget: 600, minRecentMessages: 4 });
}

/** Rewrites the SSN in every user text, on the given hook and position. */
function redaction(hook: "compress" | "filter" | "repairOrphans" | "insertSystem", stage: number = STAGE.DEFAULT): PipelinePlugin {
  return {
    name: "RedactSSN",
    apply(pipeline) {
      pipeline.hooks[hook].tap({ name: "RedactSSN", stage }, (items, context) =>
        items.map((item): Item => {
          if (item.type !== "user" || !item.text.includes(SSN)) return item;
          context.report.repair(item, "redacted an SSN");
          return { ...item, text: item.text.replaceAll(SSN, "[SSN]") };
        }),
      );
    },
  };
}

describe("summarize: nothing left out reaches the summarizer", () => {
  test("a customer's SSN in an includeInContext: false message reaches neither the summarizer, the record nor the request", async () => {
    const stored = [
      { id: "s0", role: "system", content: `Old instructions: the customer's SSN is ${SSN}.` },
      ...chat(3).map((item) => ({ id: item.id, role: item.type, content: (item as { text: string }).text })),
      { id: "note", role: "user", content: `Internal note: customer SSN ${SSN}, do not share.`, includeInContext: false },
      ...chat(12)
        .slice(6)
        .map((item) => ({ id: item.id, role: item.type, content: (item as { text: string }).text })),
    ];
    const items = importStoredMessages(stored);
    const { calls, summarizer } = recording();
    const result = await createPipeline({ plugins: [compression(summarizer)] }).build(items, { tokenizer: wordTokenizer, system: "Be brief." });
    expect(calls).toHaveLength(1);
    const [record] = result.report.compression!.records;
    // The summary covers the turns around the note, not the note.
    expect(record!.coveredIds).toContain("u3");
    expect(record!.coveredIds).toContain("u4");
    expect(record!.coveredIds).not.toContain("note");
    expect(calls[0]!.items.map((item) => item.id)).not.toContain("note");
    expect(JSON.stringify(calls)).not.toContain(SSN);
    expect(JSON.stringify(result.report.compression!.records)).not.toContain(SSN);
    expect(JSON.stringify(result.request)).not.toContain(SSN);
    // The note is left out by the filter, with its own reason.
    expect(result.report.entries.find((entry) => entry.id === "note")).toMatchObject({ decision: "dropped", stage: "filter", plugin: "FilterPlugin", reason: "includeInContext is false" });
  });

  test.each<{ hook: "compress" | "filter" | "repairOrphans" | "insertSystem"; stage: number }>([
    { hook: "compress", stage: STAGE.FIRST },
    { hook: "filter", stage: STAGE.DEFAULT },
    { hook: "filter", stage: STAGE.LAST },
    { hook: "repairOrphans", stage: STAGE.DEFAULT },
    { hook: "insertSystem", stage: STAGE.FIRST },
  ])("a redaction plugin on $hook (position $stage): the summarizer reads the message redacted", async ({ hook, stage }) => {
    const items = chat(15);
    items[2] = { id: "u2", type: "user", text: `My SSN is ${SSN}, ${words(15, "q")}` };
    const { calls, summarizer } = recording();
    const result = await createPipeline({ plugins: [compression(summarizer), redaction(hook, stage)] }).build(items, { tokenizer: wordTokenizer });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.items.find((item) => item.id === "u2")).toMatchObject({ text: `My SSN is [SSN], ${words(15, "q")}` });
    expect(calls[0]!.transcript).toContain("My SSN is [SSN]");
    expect(JSON.stringify(calls)).not.toContain(SSN);
    expect(JSON.stringify(result.report.compression!.records)).not.toContain(SSN);
    expect(JSON.stringify(result.request)).not.toContain(SSN);
  });

  test("a user's filter that drops messages: they reach no summarizer and stay for the filter to drop", async () => {
    const items = chat(15);
    items[4] = { id: "u3", type: "user", text: `Confidential: ${SSN} ${words(17, "q")}` };
    const dropConfidential: PipelinePlugin = {
      name: "DropConfidential",
      apply(pipeline) {
        pipeline.hooks.filter.tap({ name: "DropConfidential" }, (list, context) =>
          list.filter((item) => {
            const drop = item.type === "user" && item.text.startsWith("Confidential");
            if (drop) context.report.drop(item, "confidential");
            return !drop;
          }),
        );
      },
    };
    const { calls, summarizer } = recording();
    const result = await createPipeline({ plugins: [compression(summarizer), dropConfidential] }).build(items, { tokenizer: wordTokenizer });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.items.map((item) => item.id)).not.toContain("u3");
    expect(JSON.stringify(calls)).not.toContain(SSN);
    expect(result.report.compression!.records[0]!.coveredIds).not.toContain("u3");
    expect(result.report.entries.find((entry) => entry.id === "u3")).toMatchObject({ decision: "dropped", stage: "filter", plugin: "DropConfidential", reason: "confidential" });
  });
});

describe("summarize: pinned turns", () => {
  test("a pinned first turn is passed over: the summary goes before it and covers the turns after it", async () => {
    const items = chat(15);
    items[0] = { ...items[0]!, metadata: { pinned: true } } as ItemInput;
    const { calls, summarizer } = recording();
    const result = await createPipeline({ plugins: [compression(summarizer)] }).build(items, { tokenizer: wordTokenizer });
    const [record] = result.report.compression!.records;
    expect(record!.coveredIds).not.toContain("u1");
    expect(record!.coveredIds).not.toContain("a1");
    expect(record!.coveredIds[0]).toBe("u2");
    expect(record!.startId).toBe("u1");
    expect(calls[0]!.items.map((item) => item.id)).not.toContain("u1");
    // Sent as stored, right after the summary.
    expect(result.includedIds.slice(0, 2)).toEqual(["u1", "a1"]);
    expect(result.request.messages[0]).toMatchObject({ role: "system", content: expect.stringContaining(record!.summary) });
    expect(result.request.messages[1]).toEqual({ role: "user", content: (items[0] as { text: string }).text });
    expect(result.report.entries.find((entry) => entry.id === "u1")).toMatchObject({ decision: "kept" });
  });

  test("a pinned turn in the middle stays in place, uncovered", async () => {
    const items = chat(15);
    items[5] = { ...items[5]!, metadata: { pinned: true } } as ItemInput; // a3
    const { summarizer } = recording();
    const result = await createPipeline({ plugins: [compression(summarizer)] }).build(items, { tokenizer: wordTokenizer });
    const [record] = result.report.compression!.records;
    expect(record!.coveredIds).toContain("u2");
    expect(record!.coveredIds).toContain("u4");
    expect(record!.coveredIds).not.toContain("u3");
    expect(record!.coveredIds).not.toContain("a3");
    expect(result.includedIds.slice(0, 2)).toEqual(["u3", "a3"]);
    expect(result.request.messages[0]).toMatchObject({ role: "system", content: expect.stringContaining(record!.summary) });
    expect(result.request.messages[1]).toEqual({ role: "user", content: (items[4] as { text: string }).text });
  });
});
