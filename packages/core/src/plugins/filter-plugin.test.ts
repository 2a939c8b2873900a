import { describe, expect, test } from "vitest";
import type { ItemInput } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { buildWith, wordTokenizer } from "../testing/index.js";
import { FilterPlugin } from "./filter-plugin.js";

const newest: ItemInput = { id: "last", type: "user", text: "newest question" };

describe("FilterPlugin", () => {
  test.for([
    { case: "an item excluded from context", item: { id: "x", type: "user", text: "private", metadata: { includeInContext: false } }, reason: "includeInContext is false" },
    { case: "an empty assistant message", item: { id: "x", type: "assistant", text: "" }, reason: "empty assistant message without tool calls" },
    { case: "a whitespace-only assistant message", item: { id: "x", type: "assistant", text: " \n\t" }, reason: "empty assistant message without tool calls" },
    { case: "an invisible-only assistant message", item: { id: "x", type: "assistant", text: "\u200B\uFEFF" }, reason: "empty assistant message without tool calls" },
  ] satisfies Array<{ case: string; item: ItemInput; reason: string }>)("drops $case and says why", async ({ item, reason }) => {
    const result = await buildWith([], [item, newest]);
    expect(result.excludedIds).toEqual(["x"]);
    expect(result.report.entries[0]).toEqual({
      id: "x",
      inputIndex: 0,
      type: item.type,
      role: item.type,
      decision: "dropped",
      stage: "filter",
      plugin: "FilterPlugin",
      reason,
      tokens: wordTokenizer.count(item.text),
      tokensSaved: wordTokenizer.count(item.text),
      history: [{ decision: "dropped", stage: "filter", plugin: "FilterPlugin", reason }],
    });
  });

  test("keeps an assistant message with tool calls even when its text is empty", async () => {
    const result = await buildWith(
      [],
      [
        { id: "u", type: "user", text: "list files" },
        { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "ls", arguments: "{}" }] },
        { id: "t", type: "tool-result", callId: "c1", output: "a.txt" },
      ],
    );
    expect(result.includedIds).toEqual(["u", "a", "t"]);
  });

  test("counts filtered items: stored system messages are not counted, and with no composed prompt they are the prompt", async () => {
    const result = await buildWith(
      [],
      [
        { id: "s", type: "system", text: "stale" },
        { id: "hidden", type: "user", text: "x", metadata: { includeInContext: false } },
        { id: "empty", type: "assistant", text: "" },
        newest,
      ],
    );
    expect(result.metadata).toEqual({ inputCount: 4, outputCount: 2, filteredCount: 2, systemPromptIncluded: true, systemPromptLength: "stale".length });
  });

  test("passes stored system messages on by default: the insert-system stage decides what becomes of them", async () => {
    const result = await buildWith([], [{ id: "s", type: "system", text: "Answer in French." }, newest]);
    expect(result.report.entries[0]).toMatchObject({ id: "s", decision: "merged", stage: "insert-system", plugin: "InsertSystemPlugin" });
    expect(result.report.entries[0]!.history.some((event) => event.stage === "filter")).toBe(false);
  });

  test("dropStoredSystemMessages: true drops every stored system message here, composed prompt or not", async () => {
    const reason = "stored system message: FilterPlugin drops them (dropStoredSystemMessages: true)";
    const result = await buildWith([new FilterPlugin({ dropStoredSystemMessages: true })], [{ id: "s", type: "system", text: "Answer in French." }, newest]);
    expect(result.request.messages).toEqual([{ role: "user", content: "newest question" }]);
    expect(result.report.entries[0]).toMatchObject({ decision: "dropped", stage: "filter", plugin: "FilterPlugin", reason });
  });

  test("dropExcludedItems can be switched off", async () => {
    const result = await buildWith([new FilterPlugin({ dropExcludedItems: false })], [{ id: "x", type: "user", text: "kept", metadata: { includeInContext: false } }, newest]);
    expect(result.includedIds).toContain("x");
  });

  test("with dropEmptyAssistantMessages off, an empty assistant message still never reaches the provider: repair-orphans drops it", async () => {
    const result = await buildWith([new FilterPlugin({ dropEmptyAssistantMessages: false })], [{ id: "x", type: "assistant", text: "" }, newest]);
    expect(result.report.entries[0]).toMatchObject({ decision: "dropped", stage: "repair-orphans", reason: "assistant message with no visible text and no tool calls" });
  });

  test("bad options are refused in the constructor, naming the plugin and the field", () => {
    expect(() => new FilterPlugin({ dropExcludedItems: "yes" as never })).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", code: "OPTIONS_INVALID", plugin: "FilterPlugin", message: expect.stringContaining("dropExcludedItems") }),
    );
  });

  test("a misspelt option is refused rather than silently ignored", () => {
    expect(() => new FilterPlugin({ dropStoredSystemMessage: false } as never)).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", plugin: "FilterPlugin", message: expect.stringContaining("dropStoredSystemMessage") }),
    );
  });

  test("is replaceable: the pipeline without it sends what it would have dropped", async () => {
    const hidden: ItemInput = { id: "h", type: "user", text: "stored", metadata: { includeInContext: false } };
    const result = await createPipeline({ defaults: { filter: false } }).build([hidden, newest], { tokenizer: wordTokenizer });
    expect(result.request.messages[0]).toEqual({ role: "user", content: "stored" });
  });
});
