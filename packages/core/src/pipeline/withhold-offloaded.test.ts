import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "../model/item.js";
import { wordTokenizer } from "../testing/index.js";
import { cutMiddle } from "../text/cut-middle.js";
import type { ReportEvent } from "./build-report.js";
import type { PipelinePlugin } from "./pipeline-hooks.js";
import { createPipeline } from "./pipeline.js";
import { offloadOutcome, sameForOffloading, withheldWarning } from "./withhold-offloaded.js";

const LOG = Array.from({ length: 400 }, (_, index) => `line ${index}: SECRET-${index}`).join("\n");

/** A compress tap that cuts every long tool output and offloads the original, as truncation does. */
const cutLongOutputs: PipelinePlugin = {
  name: "CutLong",
  apply(pipeline) {
    pipeline.hooks.compress.tap({ name: "CutLong" }, (items, context) =>
      items.map((item): Item => {
        if (item.type !== "tool-result" || item.output.length < 1000) return item;
        const { text, cut } = cutMiddle(item.output, { maxTokens: 200, tokenizer: wordTokenizer });
        context.report.truncate(item, "over its cap", cut!, item.output);
        return { ...item, output: text };
      }),
    );
  },
};

/** A filter-stage redaction of every tool output. */
const redactOutputs: PipelinePlugin = {
  name: "RedactOutputs",
  apply(pipeline) {
    pipeline.hooks.filter.tap({ name: "RedactOutputs" }, (items, context) =>
      items.map((item): Item => {
        if (item.type !== "tool-result") return item;
        context.report.repair(item, "redacted");
        return { ...item, output: item.output.replaceAll(/SECRET-\d+/g, "[redacted]") };
      }),
    );
  },
};

function conversation(metadata: ItemInput["metadata"] = {}): ItemInput[] {
  return [
    { id: "u1", type: "user", text: "Read the log." },
    { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read_log", arguments: "{}" }] },
    { id: "t1", type: "tool-result", callId: "c1", toolName: "read_log", output: LOG, metadata },
    { id: "r1", type: "assistant", text: "Read it." },
    { id: "u2", type: "user", text: "And now?" },
  ];
}

/** A compress tap that clears every long tool output, keeping the original offloaded. */
const clearLongOutputs: PipelinePlugin = {
  name: "ClearLong",
  apply(pipeline) {
    pipeline.hooks.compress.tap({ name: "ClearLong" }, (items, context) =>
      items.map((item): Item => {
        if (item.type !== "tool-result" || item.output.length < 1000) return item;
        const handle = context.report.offload(item, item.output);
        context.report.clear(item, "old result");
        return { ...item, output: `[cleared: read ${handle} back]` };
      }),
    );
  },
};

/** A filter-stage redaction that only touches outputs holding a secret (a placeholder holds none). */
const redactSecrets: PipelinePlugin = {
  name: "RedactSecrets",
  apply(pipeline) {
    pipeline.hooks.filter.tap({ name: "RedactSecrets" }, (items, context) =>
      items.map((item): Item => {
        if (item.type !== "tool-result" || !item.output.includes("SECRET-")) return item;
        context.report.repair(item, "redacted");
        return { ...item, output: item.output.replaceAll(/SECRET-\d+/g, "[redacted]") };
      }),
    );
  },
};

describe("offloaded text a later stage kept from the model is withheld", () => {
  test("a redaction that only the original would have met (the build sent a placeholder): withheld", async () => {
    const result = await createPipeline({ plugins: [clearLongOutputs, redactSecrets] }).build(conversation(), { tokenizer: wordTokenizer });
    expect(result.report.entries.find((entry) => entry.id === "t1")!.decision).toBe("cleared");
    expect(result.report.offloaded).toEqual([]);
    expect(result.report.warnings).toEqual([expect.stringMatching(/^\[ctxpipe\] the text of item "t1" kept as ctx_[0-9a-f]{16} is not offloaded: RedactSecrets then rewrote the item \(filter: redacted\), so the model may not read it back$/)]);
  });

  test("cleared with no policy against it: offloaded", async () => {
    const result = await createPipeline({ plugins: [clearLongOutputs] }).build(conversation(), { tokenizer: wordTokenizer });
    expect(result.report.offloaded.map((text) => text.itemId)).toEqual(["t1"]);
  });

  test("a text cut and then sent is offloaded", async () => {
    const result = await createPipeline({ plugins: [cutLongOutputs] }).build(conversation(), { tokenizer: wordTokenizer });
    expect(result.report.offloaded.map((text) => [text.itemId, text.chars])).toEqual([["t1", LOG.length]]);
    expect(result.report.warnings).toEqual([]);
  });

  test("a text cut and then dropped by the budget fit is not offloaded, without a warning", async () => {
    const items = [...conversation(), ...Array.from({ length: 30 }, (_, index): ItemInput => ({ id: `m${index}`, type: index % 2 === 0 ? "user" : "assistant", text: "more words ".repeat(20) }))];
    const result = await createPipeline({ plugins: [cutLongOutputs] }).build(items, { tokenizer: wordTokenizer, maxTokens: 500 });
    expect(result.report.entries.find((entry) => entry.id === "t1")).toMatchObject({ decision: "dropped", plugin: "FitBudgetPlugin" });
    expect(result.report.offloaded).toEqual([]);
    expect(result.report.warnings).toEqual([]);
  });

  test("a text cleared and then dropped as an orphan (its call left out) is not offloaded, without a warning", async () => {
    const items = conversation().map((item) => (item.id === "a1" ? { ...item, metadata: { includeInContext: false } } : item));
    const result = await createPipeline({ plugins: [clearLongOutputs] }).build(items, { tokenizer: wordTokenizer });
    expect(result.report.entries.find((entry) => entry.id === "t1")).toMatchObject({ decision: "dropped", plugin: "RepairOrphansPlugin" });
    expect([result.report.offloaded, result.report.warnings]).toEqual([[], []]);
  });

  test("a text an orphan dropped by repair and a sent result both held stays offloaded: the sent result's placeholder names it", async () => {
    const [u1, a1, t1, r1, u2] = conversation();
    const orphan = { ...t1!, id: "orphan", callId: "c9" } as ItemInput;
    const result = await createPipeline({ plugins: [clearLongOutputs] }).build([u1!, orphan, a1!, t1!, r1!, u2!], { tokenizer: wordTokenizer });
    expect(result.report.entries.filter((entry) => entry.id === "orphan" || entry.id === "t1").map((entry) => [entry.id, entry.decision, entry.plugin])).toEqual([
      ["orphan", "dropped", "RepairOrphansPlugin"],
      ["t1", "cleared", "ClearLong"],
    ]);
    expect(result.report.offloaded.map((text) => [text.itemId, text.chars])).toEqual([["orphan", LOG.length]]);
    expect(JSON.stringify(result.request)).toContain(result.report.offloaded[0]!.handle);
  });

  test.each<{ case: string; plugins: PipelinePlugin[]; metadata: ItemInput["metadata"]; says: string }>([
    {
      case: "left out (includeInContext: false)",
      plugins: [cutLongOutputs],
      metadata: { includeInContext: false },
      says: "FilterPlugin then left out the item (filter: includeInContext is false)",
    },
    { case: "rewritten by a redaction plugin", plugins: [cutLongOutputs, redactOutputs], metadata: {}, says: "RedactOutputs then rewrote the item (filter: redacted)" },
  ])("$case: not offloaded, with a warning", async ({ plugins, metadata, says }) => {
    const result = await createPipeline({ plugins }).build(conversation(metadata), { tokenizer: wordTokenizer });
    expect(result.report.offloaded).toEqual([]);
    const handle = result.report.entries.find((entry) => entry.id === "t1")!.history[0]!;
    expect(handle.decision).toBe("truncated");
    expect(result.report.warnings).toEqual([expect.stringMatching(new RegExp(`^\\[ctxpipe\\] the text of item "t1" kept as ctx_[0-9a-f]{16} is not offloaded: ${says.replace(/[()]/g, "\\$&")}, so the model may not read it back$`))]);
    expect(JSON.stringify(result.report.offloaded)).not.toContain("SECRET-");
  });
});

describe("events that count the same for offloading", () => {
  const eventArbitrary = fc.record({
    decision: fc.constantFrom("cleared", "truncated", "dropped", "summarized", "repaired", "kept", "synthesized", "merged"),
    stage: fc.constantFrom("compress", "filter", "repair-orphans", "render"),
    plugin: fc.constantFrom("ClearSome", "FilterPlugin", "RepairOrphansPlugin", "HardLimitsPlugin"),
    reason: fc.constantFrom("one", "two"),
  }) as fc.Arbitrary<ReportEvent>;

  test("give every history the same outcome and warning, put in for each other anywhere", () => {
    fc.assert(
      fc.property(fc.array(eventArbitrary, { maxLength: 5 }), fc.array(eventArbitrary, { maxLength: 3 }), eventArbitrary, eventArbitrary, fc.nat(), fc.boolean(), (history, policy, left, right, at, inPolicy) => {
        fc.pre(sameForOffloading(left, right));
        const place = (events: ReportEvent[], event: ReportEvent) => [...events.slice(0, at % (events.length + 1)), event, ...events.slice(at % (events.length + 1))];
        const text = { handle: "ctx_0123456789abcdef", itemId: "t1", text: "original", chars: 8 };
        const outcome = (event: ReportEvent) => {
          const found = inPolicy ? offloadOutcome(history, place(policy, event)) : offloadOutcome(place(history, event), policy);
          return found.kind === "warned" ? withheldWarning(text, found.event) : found.kind;
        };
        expect(outcome(right)).toBe(outcome(left));
      }),
      { numRuns: 2000 },
    );
  });
});
