import { describe, expect, test } from "vitest";
import type { ItemOf } from "../model/item.js";
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
