import { createPipeline, type ItemInput, parseItems } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { xmlRendererPlugins } from "@ctxpipe/xml-renderer";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import { fingerprintOf } from "./fingerprint.js";
import type { SummaryRecord } from "./summary-record.js";

function chat(turns: number): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: `question ${turn}` });
    items.push({ id: `a${turn}`, type: "assistant", text: `answer ${turn}` });
  }
  return items;
}

/** A record as the summarize strategy makes it, for the given messages of `items`. */
function recordOf(items: ReadonlyArray<ItemInput>, coveredIds: string[], fields: Partial<SummaryRecord> = {}): SummaryRecord {
  const covered = parseItems(items).filter((item) => coveredIds.includes(item.id));
  return {
    id: `sum_${coveredIds.join("_")}`,
    summary: `Summary of ${coveredIds.join(", ")}.`,
    coveredIds,
    startId: coveredIds[0]!,
    sourceTokenCount: covered.length * 2,
    createdAt: "2026-01-01T00:00:00.000Z",
    fingerprint: fingerprintOf(covered),
    ...fields,
  };
}

// No strategy runs: a budget far above the history.
const compression = () => new CompressionPlugin({ strategies: ["sliding-window"], tokenBudget: 100_000 });
const build = (items: ReadonlyArray<ItemInput>, summaries: SummaryRecord[]) => createPipeline({ plugins: [compression()] }).build(items, { tokenizer: wordTokenizer, summaries });
const entryOf = (result: Awaited<ReturnType<typeof build>>, id: string) => result.report.entries.find((entry) => entry.id === id);

describe("applying persisted summaries", () => {
  test("the summary goes where its start id was, with the \"[Previous conversation summary (N messages compressed)]\" heading, then the rest in order", async () => {
    const items = chat(4);
    const record = recordOf(items, ["u1", "a1", "u2", "a2"]);
    const result = await build(items, [record]);
    expect(result.request.messages[0]).toEqual({ role: "system", content: "[Previous conversation summary (4 messages compressed)]\n\nSummary of u1, a1, u2, a2." });
    expect(result.includedIds).toEqual(["u3", "a3", "u4", "a4"]);
    expect(result.request.messages.slice(1, 5).map((message) => message.content)).toEqual(["question 3", "answer 3", "question 4", "answer 4"]);
    for (const id of record.coveredIds) expect(entryOf(result, id)).toMatchObject({ decision: "summarized", stage: "compress", plugin: "apply-summaries", relatedId: record.id, tokensSaved: 2 });
    expect(result.report.compression).toMatchObject({ appliedSummaries: [record.id], skippedSummaries: [], ran: true });
    expect(result.report.warnings).toEqual([]);
  });

  test("messages after the start id that the summary does not cover stay, in order", async () => {
    const items = chat(4);
    const record = recordOf(items, ["u1", "a1", "a2", "u3"]);
    const result = await build(items, [record]);
    expect(result.includedIds).toEqual(["u2", "a3", "u4", "a4"]);
    expect(result.request.messages[0]!.content).toContain("Summary of u1, a1, a2, u3.");
  });

  test("messages before the start id are taken as covered: the history goes on from the start id, after the summary", async () => {
    const items = chat(4);
    const record = recordOf(items, ["u2", "a2"]);
    const result = await build(items, [record]);
    expect(result.includedIds).toEqual(["u3", "a3", "u4", "a4"]);
    expect(entryOf(result, "u1")).toMatchObject({ decision: "summarized", relatedId: record.id, reason: expect.stringContaining("before the start") });
  });

  test("a missing start id: not applied, a warning, the history used as it is", async () => {
    const items = chat(4);
    const record = recordOf(items, ["u1", "a1"], { startId: "gone" });
    const result = await build(items, [record]);
    expect(result.includedIds).toEqual(items.map((item) => item.id));
    expect(result.report.compression!.appliedSummaries).toEqual([]);
    expect(result.report.compression!.skippedSummaries).toEqual([{ id: record.id, reason: expect.stringContaining('start id "gone"') }]);
    expect(result.report.warnings).toEqual([expect.stringContaining(`summary "${record.id}" not applied`)]);
    expect(result.request.messages.some((message) => String(message.content).includes("Summary of"))).toBe(false);
  });

  test("a covered message that is gone: not applied", async () => {
    const items = chat(4);
    const record = recordOf(items, ["u1", "a1", "u2"]);
    const result = await build(
      items.filter((item) => item.id !== "a1"),
      [record],
    );
    expect(result.includedIds).toHaveLength(7);
    expect(result.report.compression!.skippedSummaries).toEqual([{ id: record.id, reason: expect.stringContaining('"a1"') }]);
    expect(result.report.warnings).toHaveLength(1);
  });

  test("a covered message edited since: the fingerprint no longer matches, not applied", async () => {
    const items = chat(4);
    const record = recordOf(items, ["u1", "a1", "u2", "a2"]);
    const edited = items.map((item) => (item.id === "a1" ? { ...item, text: "a different answer" } : item));
    const result = await build(edited, [record]);
    expect(result.includedIds).toEqual(items.map((item) => item.id));
    expect(result.report.compression!.skippedSummaries).toEqual([{ id: record.id, reason: expect.stringContaining("edited") }]);
    // Metadata is bookkeeping, not content: changing it keeps the record valid.
    const retagged = items.map((item) => (item.id === "a1" ? { ...item, metadata: { runId: "run_2" } } : item));
    expect((await build(retagged, [record])).report.compression!.appliedSummaries).toEqual([record.id]);
    // A record without a fingerprint is checked by ids only.
    const { fingerprint: _fingerprint, ...unchecked } = record;
    expect((await build(edited, [unchecked])).report.compression!.appliedSummaries).toEqual([record.id]);
  });

  test("a record wholly inside a newer one is superseded silently", async () => {
    const items = chat(4);
    const older = recordOf(items, ["u1", "a1"], { createdAt: "2026-01-01T00:00:00.000Z" });
    const newer = recordOf(items, ["u1", "a1", "u2", "a2"], { createdAt: "2026-01-02T00:00:00.000Z" });
    for (const order of [
      [older, newer],
      [newer, older],
    ]) {
      const result = await build(items, order);
      expect(result.report.compression).toMatchObject({ appliedSummaries: [newer.id], skippedSummaries: [] });
      expect(result.report.warnings).toEqual([]);
      expect(result.includedIds).toEqual(["u3", "a3", "u4", "a4"]);
      expect(result.request.messages.filter((message) => message.role === "system")).toHaveLength(1);
    }
  });

  test("a record that overlaps a newer one in part is skipped", async () => {
    const items = chat(4);
    const older = recordOf(items, ["u1", "a1", "u2"], { createdAt: "2026-01-01T00:00:00.000Z" });
    const newer = recordOf(items, ["u2", "a2", "u3"], { createdAt: "2026-01-02T00:00:00.000Z" });
    const result = await build(items, [older, newer]);
    expect(result.report.compression!.appliedSummaries).toEqual([newer.id]);
    expect(result.report.compression!.skippedSummaries).toEqual([{ id: older.id, reason: expect.stringContaining(`overlaps summary "${newer.id}"`) }]);
    expect(result.includedIds).toEqual(["a3", "u4", "a4"]);
  });

  test("two disjoint records both apply, each in its place", async () => {
    const items = chat(5);
    const first = recordOf(items, ["u1", "a1"], { createdAt: "2026-01-01T00:00:00.000Z" });
    const second = recordOf(items, ["u3", "a3"], { createdAt: "2026-01-02T00:00:00.000Z" });
    const result = await build(items, [first, second]);
    expect(result.report.compression!.appliedSummaries).toEqual([second.id, first.id]);
    expect(result.request.messages.map((message) => message.content)).toEqual([
      "[Previous conversation summary (2 messages compressed)]\n\nSummary of u1, a1.",
      "question 2",
      "answer 2",
      "[Previous conversation summary (2 messages compressed)]\n\nSummary of u3, a3.",
      "question 4",
      "answer 4",
      "question 5",
      "answer 5",
      // Core's synthesized turn after a history that ends on the assistant.
      "Continue.",
    ]);
  });

  test("a summary item stored in the history removes what it covers and moves to the first covered position", async () => {
    const items: ItemInput[] = [...chat(4), { id: "s1", type: "summary", text: "Stored summary.", coveredIds: ["u1", "a1", "u2", "a2"] }, { id: "u5", type: "user", text: "next" }];
    const result = await build(items, []);
    expect(result.includedIds).toEqual(["s1", "u3", "a3", "u4", "a4", "u5"]);
    expect(result.request.messages[0]!.content).toContain("Stored summary.");
    for (const id of ["u1", "a1", "u2", "a2"]) expect(entryOf(result, id)).toMatchObject({ decision: "summarized", relatedId: "s1" });
    expect(result.report.compression!.appliedSummaries).toEqual(["s1"]);
  });

  test("a stored summary item covering a range by fromId/toId", async () => {
    const items: ItemInput[] = [...chat(4), { id: "s1", type: "summary", text: "Range summary.", fromId: "a1", toId: "u3" }];
    const result = await build(items, []);
    expect(result.includedIds).toEqual(["u1", "s1", "a3", "u4", "a4"]);
    for (const id of ["a1", "u2", "a2", "u3"]) expect(entryOf(result, id)).toMatchObject({ decision: "summarized", relatedId: "s1" });
  });

  test("a stored summary item whose messages are already gone stays where it is", async () => {
    const items: ItemInput[] = [{ id: "s0", type: "summary", text: "Old.", coveredIds: ["x1", "x2"] }, ...chat(2)];
    const result = await build(items, []);
    expect(result.includedIds).toEqual(["s0", "u1", "a1", "u2", "a2"]);
    expect(result.report.compression!.appliedSummaries).toEqual([]);
  });

  test("records are applied even with compression: false", async () => {
    const items = chat(3);
    const record = recordOf(items, ["u1", "a1"]);
    const result = await createPipeline({ plugins: [compression()] }).build(items, { tokenizer: wordTokenizer, summaries: [record], compression: false });
    expect(result.includedIds).toEqual(["u2", "a2", "u3", "a3"]);
  });

  test("the XML renderer sends the summary as <progress_summary>", async () => {
    const items = chat(3);
    const record = recordOf(items, ["u1", "a1"]);
    const pipeline = createPipeline({ plugins: [...xmlRendererPlugins(), compression()] });
    const result = await pipeline.build(items, { renderer: "xml", tokenizer: wordTokenizer, summaries: [record] });
    const text = result.request.messages.map((message) => message.content).join("\n");
    expect(text).toMatch(new RegExp(`<progress_summary id="${record.id}"[^>]*original_count="2"[^>]*>\\s*Summary of u1, a1\\.\\s*</progress_summary>`));
    expect(text).not.toContain("question 1");
    expect(text).toContain("question 2");
  });
});
