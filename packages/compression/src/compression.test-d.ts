// Type tests for the per-build options and report fields @ctxpipe/compression adds to core's by
// declaration merging. Checked by `tsc` (typecheck) and by vitest's typecheck mode.
import { createPipeline, type ItemInput, type ItemOf } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";
import { type CompressionReport, CompressionPlugin, type CompressionStrategy, type SummaryRecord } from "./index.js";

const items: ItemInput[] = [{ id: "u1", type: "user", text: "Hi" }];
const summaries: SummaryRecord[] = [];

describe("build options", () => {
  test("summaries and compression are build options", async () => {
    const pipeline = createPipeline({ plugins: [new CompressionPlugin({ strategies: ["sliding-window"] })] });
    const result = await pipeline.build(items, { summaries, compression: { tokenBudget: 1000, triggerThreshold: 0.8, targetUsage: 0.5, minRecentMessages: 4, loopStartId: "u1" } });
    expectTypeOf(result.report.compression).toEqualTypeOf<Readonly<CompressionReport> | undefined>();
    expectTypeOf(result.report.compression!.records).toEqualTypeOf<ReadonlyArray<SummaryRecord>>();
    expectTypeOf(result.report.compression?.records).toEqualTypeOf<ReadonlyArray<SummaryRecord> | undefined>();
    await pipeline.build(items, { compression: false });
    await pipeline.build(items, { renderer: "openai", summaries: [{ id: "s", summary: "x", coveredIds: ["u1"], startId: "u1", sourceTokenCount: 1, createdAt: "2026-01-01T00:00:00Z" }] });

    // @ts-expect-error compression is settings or false, not true
    await pipeline.build(items, { compression: true });
    // @ts-expect-error tokenBudget is a number
    await pipeline.build(items, { compression: { tokenBudget: "1000" } });
    // @ts-expect-error no such per-build setting
    await pipeline.build(items, { compression: { strategies: ["priority"] } });
    // @ts-expect-error summaries are records, not strings
    await pipeline.build(items, { summaries: ["s1"] });
    // @ts-expect-error a record needs its covered ids
    await pipeline.build(items, { summaries: [{ id: "s", summary: "x", startId: "u1", sourceTokenCount: 1, createdAt: "2026-01-01T00:00:00Z" }] });
  });
});

describe("plugin options", () => {
  test("strategies by name, by settings, or as objects", () => {
    const custom: CompressionStrategy = { name: "mine", compress: () => undefined };
    new CompressionPlugin({ strategies: ["sliding-window", { type: "clear-tool-results", keepRecent: 2, excludeTools: ["memory"] }, custom] });
    new CompressionPlugin({ strategies: [{ type: "summarize", summarizer: async (request) => request.transcript, timeoutMs: 1000, onFailure: "throw" }] });
    // @ts-expect-error no such strategy
    new CompressionPlugin({ strategies: ["shrink"] });
    // @ts-expect-error keepRecent is a number
    new CompressionPlugin({ strategies: [{ type: "clear-tool-results", keepRecent: "3" }] });
    // @ts-expect-error onFailure is "skip" or "throw"
    new CompressionPlugin({ strategies: [{ type: "summarize", summarizer: () => "", onFailure: "ignore" }] });
    // @ts-expect-error a summarizer answers with text
    new CompressionPlugin({ strategies: ["summarize"], summarizer: () => 42 });
  });
});

describe("frozenReplacement", () => {
  test("gives back the item's own type, and takes only that type's fields", async () => {
    const { frozenReplacement } = await import("./index.js");
    const result = { id: "t1", type: "tool-result", role: "tool", callId: "call_1", output: "long", metadata: {} } as ItemOf<"tool-result">;
    expectTypeOf(frozenReplacement(result, { output: "short" })).toEqualTypeOf<ItemOf<"tool-result">>();
    // @ts-expect-error a tool result has no text field
    frozenReplacement(result, { text: "short" });
  });
});
