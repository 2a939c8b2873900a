import { describe, expect, test } from "vitest";
import type { ItemInput, ItemOf } from "../model/item.js";
import { toolLoopFixture, wordTokenizer } from "../testing/index.js";
import { createPipeline } from "./pipeline.js";

declare module "./build-report.js" {
  interface ReportAttachments {
    testNote: { readonly seen: number };
  }
}

describe("cleared items and report attachments", () => {
  test("a cleared tool result is still sent under its id, and the report says what clearing saved", async () => {
    const pipeline = createPipeline({
      plugins: [
        {
          name: "Clearer",
          apply(host) {
            host.hooks.compress.tap({ name: "Clearer" }, (items, context) =>
              items.map((item) => {
                if (item.type !== "tool-result" || item.id !== "t2") return item;
                context.report.clear(item, "old tool result");
                return { ...item, output: "[cleared]" } satisfies ItemOf<"tool-result">;
              }),
            );
          },
        },
      ],
    });
    const input = toolLoopFixture().map((item) => (item.id === "t2" ? { ...item, output: "one two three four five six" } : item));
    const result = await pipeline.build(input, { tokenizer: wordTokenizer });
    const entry = result.report.entries.find((candidate) => candidate.id === "t2")!;
    const placeholder = wordTokenizer.count("[cleared]");
    const original = wordTokenizer.count("one two three four five six");
    expect(entry).toMatchObject({ decision: "cleared", plugin: "Clearer", stage: "compress", reason: "old tool result", tokens: placeholder, tokensSaved: original - placeholder });
    expect(original - placeholder).toBeGreaterThan(0);
    expect(result.includedIds).toContain("t2");
    expect(JSON.stringify(result.request)).toContain("[cleared]");
    expect(JSON.stringify(result.request)).not.toContain("one two three");
    // Items sent as they were carry no saving.
    expect(result.report.entries.find((candidate) => candidate.id === "t1")!.tokensSaved).toBeUndefined();
  });

  test("a dropped item saved all of its tokens", async () => {
    const pipeline = createPipeline({
      plugins: [
        {
          name: "Dropper",
          apply(host) {
            host.hooks.compress.tap({ name: "Dropper" }, (items, context) => {
              context.report.drop("a2", "not needed");
              return items.filter((item) => item.id !== "a2");
            });
          },
        },
      ],
    });
    const result = await pipeline.build(toolLoopFixture(), { tokenizer: wordTokenizer });
    const entry = result.report.entries.find((candidate) => candidate.id === "a2")!;
    expect(entry.decision).toBe("dropped");
    expect(entry.tokensSaved).toBe(entry.tokens);
    expect(entry.tokens).toBeGreaterThan(0);
  });

  test("a plugin's attachment appears on the report under its own field; the report's own fields are refused", async () => {
    const refused: string[] = [];
    const pipeline = createPipeline({
      plugins: [
        {
          name: "Noter",
          apply(host) {
            host.hooks.compress.tap({ name: "Noter" }, (items, context) => {
              context.report.attach("testNote", { seen: items.length });
              try {
                (context.report.attach as (key: string, value: unknown) => void)("entries", []);
              } catch (error) {
                refused.push((error as Error).message);
              }
            });
          },
        },
      ],
    });
    const result = await pipeline.build(toolLoopFixture(), { tokenizer: wordTokenizer });
    expect(result.report.testNote).toEqual({ seen: 5 });
    expect(result.report.entries).toHaveLength(5);
    expect(refused).toEqual(['report.attach(): "entries" is one of the report\'s own fields']);
  });

  test("report.as() names a part of the tap as the decision's plugin", async () => {
    const pipeline = createPipeline({
      plugins: [
        {
          name: "Chain",
          apply(host) {
            host.hooks.compress.tap({ name: "Chain" }, (items, context) => {
              context.report.as("first-step").drop("a2", "the first step said so");
              return items.filter((item) => item.id !== "a2" && item.id !== "t2");
            });
          },
        },
      ],
    });
    const result = await pipeline.build(toolLoopFixture(), { tokenizer: wordTokenizer });
    const byId = new Map(result.report.entries.map((entry) => [entry.id, entry]));
    expect(byId.get("a2")).toMatchObject({ decision: "dropped", plugin: "first-step", stage: "compress", reason: "the first step said so" });
    // What the tap did without saying is still its own.
    expect(byId.get("t2")).toMatchObject({ decision: "dropped", plugin: "Chain" });
  });
});

describe("report.allEntries", () => {
  const summarizeOldest = {
    name: "SummarizeOldest",
    apply(host: import("./pipeline-hooks.js").PluginHost) {
      host.hooks.compress.tap({ name: "SummarizeOldest" }, (items, context) => {
        const covered = ["u0", "a0"];
        for (const id of covered) context.report.summarize(id, "sum", "older than the last turns");
        const summary = { id: "sum", type: "summary" as const, role: "system" as const, text: "The user said hello.", coveredIds: covered, metadata: {} };
        return [summary, ...items.filter((item) => !covered.includes(item.id))];
      });
    },
  };
  const input: ItemInput[] = [
    { id: "u0", type: "user", text: "hello" },
    { id: "a0", type: "assistant", text: "hi" },
    { id: "u1", type: "user", text: "read a" },
    // A call whose result was never stored: repair-orphans adds one.
    { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] },
    // A stored system message: the filter drops it.
    { id: "s", type: "system", text: "stored rules" },
    { id: "u2", type: "user", text: "thanks" },
    { id: "u2", type: "user", text: "thanks" },
  ];

  test("lists every entry once: the request's in request order, the others at their input position", async () => {
    const result = await createPipeline({ plugins: [summarizeOldest] }).build(input, { tokenizer: wordTokenizer, system: "Be brief." });
    const { report } = result;
    expect(report.allEntries.map((entry) => [entry.id, entry.decision, entry.inputIndex ?? "added", entry.messageIndex ?? "not sent"])).toEqual([
      ["ctxpipe:system-prompt", "synthesized", "added", 0],
      ["sum", "synthesized", "added", 1],
      // A summarized item names the message of its summary.
      ["u0", "summarized", 0, 1],
      ["a0", "summarized", 1, 1],
      ["u1", "kept", 2, 2],
      ["a1", "kept", 3, 3],
      [report.synthesized[2]!.id, "synthesized", "added", 4],
      ["s", "dropped", 4, "not sent"],
      ["u2", "kept", 5, 5],
      ["u2", "dropped", 6, "not sent"],
    ]);
    expect(report.synthesized.map((entry) => entry.id)).toEqual(["ctxpipe:system-prompt", "sum", report.synthesized[2]!.id]);
    expect(report.synthesized[2]!.history[0]).toMatchObject({ stage: "repair-orphans" });
    // The same entry objects as entries and synthesized, each once.
    expect(new Set(report.allEntries)).toEqual(new Set([...report.entries, ...report.synthesized]));
    expect(report.allEntries).toHaveLength(report.entries.length + report.synthesized.length);
    // entries is unchanged: input order, one per input item.
    expect(report.entries.map((entry) => entry.inputIndex)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  test("is left out of the serialized report, which keeps entries and synthesized", async () => {
    const { report } = await createPipeline({ plugins: [summarizeOldest] }).build(input, { tokenizer: wordTokenizer, system: "Be brief." });
    const serialized = JSON.parse(JSON.stringify(report)) as { entries: unknown[] };
    expect(Object.keys(serialized)).not.toContain("allEntries");
    expect(serialized.entries).toHaveLength(report.entries.length);
    expect(Object.keys(report)).not.toContain("allEntries");
    expect(report.allEntries).toBe(report.allEntries);
  });

  test("items left out after the last item of the request come at the end", async () => {
    const dropNewest = {
      name: "DropNewest",
      apply(host: import("./pipeline-hooks.js").PluginHost) {
        host.hooks.filter.tap({ name: "DropNewest" }, (items, context) => {
          context.report.drop("late", "test drops it");
          return items.filter((item) => item.id !== "late");
        });
      },
    };
    const { report } = await createPipeline({ plugins: [dropNewest] }).build(
      [
        { id: "u", type: "user", text: "hi" },
        { id: "late", type: "assistant", text: "gone" },
      ],
      { tokenizer: wordTokenizer },
    );
    expect(report.allEntries.map((entry) => [entry.id, entry.decision])).toEqual([
      ["u", "kept"],
      ["late", "dropped"],
    ]);
  });
});
