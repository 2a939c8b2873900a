import { createPipeline, type ItemInput, parseItems } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { xmlRendererPlugins } from "@ctxpipe/xml-renderer";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import { fingerprintOf } from "./fingerprint.js";
import { type SummaryRecord, type SummaryRecordInput, summaryRecordSchema } from "./summary-record.js";

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
const build = (items: ReadonlyArray<ItemInput>, summaries: SummaryRecordInput[]) => createPipeline({ plugins: [compression()] }).build(items, { tokenizer: wordTokenizer, summaries });
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

describe("the current turn is never covered", () => {
  const heading = (count: number) => `[Previous conversation summary (${count} messages compressed)]`;

  test("a stored range summary reaching the newest user message is cut short before it: the message is sent, the summary says so", async () => {
    const items: ItemInput[] = [...chat(2), { id: "u3", type: "user", text: "question 3" }, { id: "s1", type: "summary", text: "Range summary.", fromId: "u1", toId: "u3" }];
    const result = await build(items, []);
    expect(result.includedIds).toEqual(["s1", "u3"]);
    expect(result.request.messages).toEqual([
      { role: "system", content: `${heading(4)}\n\nRange summary.` },
      { role: "user", content: "question 3" },
    ]);
    for (const id of ["u1", "a1", "u2", "a2"]) expect(entryOf(result, id)).toMatchObject({ decision: "summarized", relatedId: "s1" });
    expect(entryOf(result, "u3")).toMatchObject({ decision: "kept" });
    expect(entryOf(result, "s1")).toMatchObject({
      decision: "repaired",
      stage: "compress",
      plugin: "apply-summaries",
      reason: 'range cut short before the current turn: it covered the newest user message "u3", sent as written instead',
    });
    expect(result.report.warnings).toEqual(['[CompressionPlugin] apply-summaries: summary "s1": range cut short before the current turn: it covered the newest user message "u3", sent as written instead']);
    expect(result.report.compression!.appliedSummaries).toEqual(["s1"]);
  });

  test("a record covering the newest user message and its answer is cut short; its summary is sent first", async () => {
    const record: SummaryRecord = { id: "sum", summary: "All of it.", coveredIds: ["u1", "a1", "u2", "a2", "u3", "a3"], startId: "u1", sourceTokenCount: 12, createdAt: "2026-01-01T00:00:00.000Z" };
    const result = await build(chat(3), [record]);
    expect(result.includedIds).toEqual(["u3", "a3"]);
    expect(result.request.messages[0]).toEqual({ role: "system", content: `${heading(4)}\n\nAll of it.` });
    expect(result.report.synthesized.find((entry) => entry.id === "sum")).toMatchObject({
      decision: "synthesized",
      reason: 'persisted summary of 4 messages, applied in their place; range cut short before the current turn: it covered the newest user message "u3" and 1 more of its turn, sent as written instead',
    });
    expect(result.report.warnings).toEqual([expect.stringContaining('summary "sum": range cut short')]);
  });

  const onlyCurrent: Array<[string, SummaryRecordInput[], ItemInput[]]> = [
    ["a record covering only the current turn", [{ id: "sum", summary: "Now.", coveredIds: ["u3", "a3"], startId: "u3", sourceTokenCount: 4, createdAt: "2026-01-01T00:00:00.000Z" }], []],
    ["a stored summary covering only the current turn", [], [{ id: "s1", type: "summary", text: "Now.", coveredIds: ["u3", "a3"] }]],
  ];
  test.for(onlyCurrent)("%s is not applied, with a warning", async ([, records, stored]) => {
    const result = await build([...chat(3), ...stored], records);
    const id = records.length > 0 ? "sum" : "s1";
    expect(result.includedIds).toEqual([...chat(3).map((item) => item.id), ...stored.map((item) => item.id)]);
    expect(result.report.compression!.skippedSummaries).toEqual([{ id, reason: 'it covers only the current turn (the newest user message "u3" and what follows it), which is always sent' }]);
    expect(result.report.warnings).toEqual([`[CompressionPlugin] apply-summaries: summary "${id}" not applied: it covers only the current turn (the newest user message "u3" and what follows it), which is always sent; the history is used as it is`]);
  });

  test("a start id inside the current turn: the summary goes before the newest user message, which is kept", async () => {
    // A message builder's start id is the first message sent after the summary; here it is the answer.
    const result = await build(chat(3), [{ summary: "Before.", messageIds: ["u1", "a1"], startMessageId: "a3" }]);
    expect(result.includedIds).toEqual(["u3", "a3"]);
    // The summary, the newest turn, and core's closing turn after a history that ends on the assistant.
    expect(result.request.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(entryOf(result, "u2")).toMatchObject({ decision: "summarized", reason: expect.stringContaining("before the start") });
    expect(result.report.warnings).toEqual([expect.stringContaining('its start id is inside the current turn, so it goes before the newest user message "u3"')]);
  });

  test("a blank newest user message does not count: the turn before it is the current one", async () => {
    const items: ItemInput[] = [...chat(2), { id: "u3", type: "user", text: "  " }, { id: "s1", type: "summary", text: "Range.", fromId: "u1", toId: "u3" }];
    const result = await build(items, []);
    expect(result.includedIds).toContain("u2");
    expect(entryOf(result, "u1")).toMatchObject({ decision: "summarized", relatedId: "s1" });
    expect(entryOf(result, "u2")).toMatchObject({ decision: "kept" });
  });
});

describe("a message builder's summary record { summary, messageIds, startMessageId }", () => {
  test("applies as the message builder does: the heading counts messageIds, then the uncovered messages from the start id", async () => {
    const items = chat(4);
    const entity = { id: "cs_1", conversationId: "conv", summary: "Set up the repo.", messageIds: ["u1", "a1", "u2", "a2"], startMessageId: "u3", createdAt: 1767225600000 };
    const result = await build(items, [entity]);
    expect(result.request.messages[0]).toEqual({ role: "system", content: "[Previous conversation summary (4 messages compressed)]\n\nSet up the repo." });
    expect(result.includedIds).toEqual(["u3", "a3", "u4", "a4"]);
    for (const id of entity.messageIds) expect(entryOf(result, id)).toMatchObject({ decision: "summarized", plugin: "apply-summaries", relatedId: "cs_1" });
    expect(result.report.warnings).toEqual([]);
  });

  test("messages after the start id that it lists are left out too; numeric ids are ids", async () => {
    const items: ItemInput[] = chat(3).map((item, index) => ({ ...item, id: String(index + 1) }));
    const result = await build(items, [{ summary: "S.", messageIds: [1, 2, 4], startMessageId: 1 }]);
    expect(result.includedIds).toEqual(["3", "5", "6"]);
    expect(result.report.compression!.appliedSummaries).toEqual([expect.stringMatching(/^summary-[0-9a-f]{16}$/)]);
  });

  test.for([
    ["a start id not in the history", { summary: "S.", messageIds: ["u1"], startMessageId: "gone" }, 'its start id "gone" is not in the history'],
    ["no start id", { summary: "S.", messageIds: ["u1"], startMessageId: null }, "it has no start id"],
  ] as const)("%s: not applied, a warning, every message sent", async ([, entity, reason]) => {
    const items = chat(3);
    const result = await build(items, [entity]);
    expect(result.includedIds).toEqual(items.map((item) => item.id));
    expect(result.report.compression!.skippedSummaries).toEqual([{ id: expect.stringMatching(/^summary-/), reason }]);
    expect(result.report.warnings).toEqual([expect.stringContaining(reason)]);
  });

  test("listing no messages, it stands in for everything before its start id", async () => {
    const result = await build(chat(3), [{ id: "cs", summary: "Earlier.", messageIds: [], startMessageId: "u2" }]);
    expect(result.includedIds).toEqual(["u2", "a2", "u3", "a3"]);
    expect(result.request.messages[0]!.content).toBe("[Previous conversation summary (2 messages compressed)]\n\nEarlier.");
  });

  test.for([
    [
      "with every field",
      { id: 7, summary: "S.", messageIds: ["m1", 2], startMessageId: 3, createdAt: "2026-01-01T00:00:00.000Z", conversationId: "c" },
      { id: "7", summary: "S.", coveredIds: ["m1", "2"], startId: "3", createdAt: "2026-01-01T00:00:00.000Z" },
    ],
    ["with a Date", { id: "s", summary: "S.", messageIds: ["m1"], startMessageId: "m2", createdAt: new Date(0) }, { id: "s", summary: "S.", coveredIds: ["m1"], startId: "m2", createdAt: "1970-01-01T00:00:00.000Z" }],
    ["without id or date", { summary: "S.", messageIds: ["m1"], startMessageId: "m2" }, { id: "summary-4d5b1e3ad2f1a1d6", summary: "S.", coveredIds: ["m1"], startId: "m2" }],
  ] as const)("reads one %s", ([, entity, record]) => {
    const parsed = summaryRecordSchema.parse(entity);
    expect({ ...parsed, id: record.id.startsWith("summary-") ? expect.stringMatching(/^summary-[0-9a-f]{16}$/) : record.id }).toEqual({ ...record, id: parsed.id });
    // The same record, the same id; and a record read once is accepted again as it is.
    expect(summaryRecordSchema.parse(entity).id).toBe(parsed.id);
    expect(summaryRecordSchema.parse(parsed)).toBe(parsed);
  });

  test.for([
    ["no summary", { messageIds: ["m1"], startMessageId: "m1" }, [{ path: ["summary"], message: "Invalid input: expected string, received undefined" }]],
    ["a bad id in messageIds", { summary: "S.", messageIds: ["m1", true], startMessageId: "m1" }, [{ path: ["messageIds", 1], message: expect.stringContaining("Invalid input") }]],
    ["no messageIds", { summary: "S.", startMessageId: "m1" }, [{ path: ["messageIds"], message: "Invalid input: expected array, received undefined" }]],
  ] as const)("refuses one with %s, naming the field", ([, entity, issues]) => {
    const parsed = summaryRecordSchema.safeParse(entity);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map(({ path, message }) => ({ path, message }))).toEqual(issues);
  });
});

