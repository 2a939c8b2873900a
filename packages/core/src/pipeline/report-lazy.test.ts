// The report walks every input item to say what became of it; a loop reads only report.offloaded,
// report.budget and its plugins' attachments every turn, so those must not pay for that walk.
import { describe, expect, test } from "vitest";
import { toolLoopFixture, wordTokenizer } from "../testing/index.js";
import { createPipeline } from "./pipeline.js";
import type { PipelinePlugin } from "./pipeline-hooks.js";

/** A renderer whose message index counts the lookups made in it: the report's assembly makes one per item. */
function probeRenderer(): { plugin: PipelinePlugin; lookups: () => number } {
  let lookups = 0;
  class CountingMap extends Map<string, number> {
    override get(id: string): number | undefined {
      lookups++;
      return super.get(id);
    }
  }
  const plugin: PipelinePlugin = {
    name: "ProbeRenderer",
    apply(host) {
      host.hooks.render.for("probe").tap({ name: "ProbeRenderer" }, (items) => ({
        request: { messages: items.map((item) => item.id) },
        tokenCount: items.length,
        messageCount: items.length,
        messageIndexById: new CountingMap(items.map((item, index) => [item.id, index])),
      }));
    },
  };
  return { plugin, lookups: () => lookups };
}

describe("the report is assembled when its entries are first read", () => {
  test("reading offloaded, budget, warnings and cache walks no item; reading entries does", async () => {
    const probe = probeRenderer();
    const result = await createPipeline({ plugins: [probe.plugin] }).build(toolLoopFixture(), { renderer: "probe" as "openai", tokenizer: wordTokenizer, maxTokens: 10_000 });
    const { report } = result;
    expect([report.offloaded, report.budget?.available, report.warnings, report.cache.compared, result.metadata.inputCount]).toEqual([[], 10_000, [], false, 5]);
    expect(probe.lookups()).toBe(0);
    expect(report.entries.map((entry) => [entry.id, entry.messageIndex])).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["t1", 2],
      ["t2", 3],
      ["a2", 4],
    ]);
    expect(probe.lookups()).toBeGreaterThanOrEqual(5);
  });

  test("the lazily read fields are enumerable, in the report's key order, and serialize as plain values", async () => {
    const result = await createPipeline().build(toolLoopFixture(), { tokenizer: wordTokenizer, system: "Be brief." });
    expect(Object.keys(result.report)).toEqual(["entries", "synthesized", "systemParts", "renderer", "tokenizer", "budget", "order", "warnings", "violations", "repairedViolations", "cache", "offloaded"]);
    const copy = JSON.parse(JSON.stringify(result.report));
    expect([copy.entries, copy.synthesized, copy.systemParts]).toEqual([result.report.entries, result.report.synthesized, result.report.systemParts]);
    expect(result.report.synthesized.length).toBeGreaterThan(0);
    expect({ ...result.report }.systemParts).toEqual(result.report.systemParts);
  });
});
