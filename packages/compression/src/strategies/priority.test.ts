import { createPipeline, type Item, type ItemInput } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import { priority } from "./priority.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

/** Turns of 2 × 20 words; `priorities[i]` goes on turn i's user message when given. */
function chat(priorities: ReadonlyArray<number | undefined>): ItemInput[] {
  return priorities.flatMap((value, index): ItemInput[] => [
    { id: `u${index + 1}`, type: "user", text: words(20, "q"), ...(value === undefined ? {} : { metadata: { priority: value } }) },
    { id: `a${index + 1}`, type: "assistant", text: words(20, "r") },
  ]);
}

const dropped = (result: { report: { entries: ReadonlyArray<{ id: string; decision: string }> } }) =>
  result.report.entries.filter((entry) => entry.decision === "dropped").map((entry) => entry.id);

// One turn costs 48 tokens; a budget of 400 over 8 turns (387 tokens) and a target of 0.7 asks for about two turns.
function build(items: ItemInput[], strategy: Parameters<typeof priority>[0] = {}, tokenBudget = 400) {
  const plugin = new CompressionPlugin({ strategies: [priority(strategy)], tokenBudget, triggerThreshold: 0.9, targetUsage: 0.7, minRecentMessages: 2 });
  return createPipeline({ plugins: [plugin] }).build(items, { tokenizer: wordTokenizer });
}

describe("priority", () => {
  test("drops the lowest-priority turns first, whole", async () => {
    const result = await build(chat([5, 5, -1, 5, 0, 5, 5, 5]));
    expect(result.report.compression!.triggered).toBe(true);
    expect(dropped(result)).toEqual(["u3", "a3", "u5", "a5"]);
    for (const entry of result.report.entries.filter((entry) => entry.decision === "dropped")) {
      expect(entry).toMatchObject({ plugin: "priority", reason: expect.stringContaining("priority") });
    }
  });

  test("ties go oldest first; metadata.priority defaults to 0", async () => {
    const result = await build(chat([1, undefined, 1, undefined, undefined, 1, 1, 1]));
    expect(dropped(result)).toEqual(["u2", "a2", "u4", "a4"]);
  });

  test("a turn is as important as its most important message", async () => {
    const items = chat([0, 0, 0, 0, 0, 0, 0, 0]);
    Object.assign(items[1]!, { metadata: { priority: 3 } });
    const result = await build(items);
    expect(dropped(result)).toEqual(["u2", "a2", "u3", "a3"]);
  });

  test("priorityOf replaces metadata.priority", async () => {
    const items = chat([9, 9, 9, 9, 9, 9, 9, 9]);
    const priorityOf = (item: Item) => (item.id === "u1" || item.id === "u2" ? 10 : Number(item.id.slice(1)) % 2);
    const result = await build(items, { priorityOf });
    // Turns 4 and 6 have priority 0 (and 8 is protected); metadata is not read.
    expect(dropped(result)).toEqual(["u4", "a4", "u6", "a6"]);
  });

  test("never drops the current loop or the newest messages, whatever their priority", async () => {
    const result = await build(chat([9, 9, 9, 9, 9, 9, -5, -5]), {}, 100);
    expect(result.includedIds).toEqual(["u7", "a7", "u8", "a8"].slice(2));
  });

  test("a priorityOf that returns no finite number fails the build naming the item", async () => {
    const error = await build(chat([0, 0, 0, 0, 0, 0, 0, 0]), { priorityOf: () => Number.NaN }).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).toContain('item "u1"');
  });
});
