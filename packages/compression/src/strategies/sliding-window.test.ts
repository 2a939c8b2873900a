import { computeTurnGroups, createPipeline, type ItemInput, type OpenAIChatRequest, parseItems } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin, type CompressionPluginOptions } from "../compression-plugin.js";
import { slidingWindow } from "./sliding-window.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

/** A chat of plain turns, each message `size` words. */
function chat(turns: number, size = 20, from = 1): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = from; turn < from + turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: words(size, "q") });
    items.push({ id: `a${turn}`, type: "assistant", text: words(size, "r") });
  }
  return items;
}

/** An agent turn: the user asks, the assistant calls a tool `rounds` times, then answers. */
function agentTurn(turn: number, rounds: number, size = 20, answer = true): ItemInput[] {
  const items: ItemInput[] = [{ id: `u${turn}`, type: "user", text: words(size, "q") }];
  for (let round = 1; round <= rounds; round++) {
    items.push({ id: `c${turn}_${round}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}_${round}`, name: "search", arguments: "{}" }] });
    items.push({ id: `t${turn}_${round}`, type: "tool-result", callId: `call_${turn}_${round}`, toolName: "search", output: words(size, "o") });
  }
  if (answer) items.push({ id: `a${turn}`, type: "assistant", text: words(size, "r") });
  return items;
}

function build(items: ReadonlyArray<ItemInput>, options: Omit<CompressionPluginOptions, "strategies"> & { strategies?: CompressionPluginOptions["strategies"] }) {
  const plugin = new CompressionPlugin({ strategies: ["sliding-window"], ...options });
  return createPipeline({ plugins: [plugin] }).build(items, { tokenizer: wordTokenizer });
}

/** Every tool message answers a call of the assistant message before it, and every call is answered. */
function expectPairsIntact(request: OpenAIChatRequest): void {
  const open = new Set<string>();
  for (const message of request.messages) {
    if (message.role === "assistant") {
      expect(open.size).toBe(0);
      for (const call of message.tool_calls ?? []) open.add(call.id);
    } else if (message.role === "tool") {
      expect(open.has(message.tool_call_id)).toBe(true);
      open.delete(message.tool_call_id);
    } else expect(open.size).toBe(0);
  }
  expect(open.size).toBe(0);
}

describe("sliding-window", () => {
  test("drops the oldest whole turns, and only them, until the request is back under the trigger", async () => {
    const items = chat(20);
    const result = await build(items, { tokenBudget: 500, minRecentMessages: 2 });
    const compression = result.report.compression!;
    expect(compression.triggered).toBe(true);
    const dropped = result.report.entries.filter((entry) => entry.decision === "dropped").map((entry) => entry.id);
    // A stretch of the oldest items, whole turns: u and a of the same turn go together.
    expect(dropped).toEqual(items.slice(0, dropped.length).map((item) => item.id));
    expect(dropped.length % 2).toBe(0);
    expect(result.includedIds).toEqual(items.slice(dropped.length).map((item) => item.id));
    expect(compression.usageAfter).toBeLessThanOrEqual(compression.triggerAt!);
    expect(compression.usageAfter).toBeGreaterThan(compression.targetAt!);
    for (const entry of result.report.entries.filter((entry) => entry.decision === "dropped")) {
      expect(entry).toMatchObject({ stage: "compress", plugin: "sliding-window" });
      expect(entry.tokensSaved).toBe(entry.tokens);
    }
    // Credited with the dropped items' tokens, counted as the entries are (message formatting aside).
    const saved = result.report.entries.reduce((sum, entry) => sum + (entry.tokensSaved ?? 0), 0);
    expect(compression.strategies).toEqual([{ name: "sliding-window", ran: true, itemsAffected: dropped.length, tokensSaved: saved }]);
    expect(compression.savings).toEqual(dropped.map((id) => ({ id, strategy: "sliding-window", tokensSaved: result.report.entries.find((entry) => entry.id === id)!.tokens })));
  });

  test("never splits a tool call from its result, parallel calls and late results included", async () => {
    const items: ItemInput[] = [];
    for (let turn = 1; turn <= 8; turn++) items.push(...agentTurn(turn, 2, 15));
    // A parallel pair in an old turn, one result arriving after the next user message.
    items.splice(
      3,
      0,
      { id: "par", type: "assistant", text: "", toolCalls: [{ id: "p1", name: "read", arguments: "{}" }, { id: "p2", name: "read", arguments: "{}" }] },
      { id: "pr1", type: "tool-result", callId: "p1", toolName: "read", output: words(15, "x") },
    );
    const late = items.findIndex((item) => item.id === "u2");
    items.splice(late + 1, 0, { id: "pr2", type: "tool-result", callId: "p2", toolName: "read", output: words(15, "y") });
    for (const budget of [300, 450, 600, 900]) {
      const result = await build(items, { tokenBudget: budget, minRecentMessages: 0 });
      expect(result.report.compression!.ran).toBe(true);
      expectPairsIntact(result.request);
      const kept = new Set(result.includedIds);
      // Whole groups: the parallel call and both its results (one of them late) go or stay together.
      expect(new Set([kept.has("par"), kept.has("pr1"), kept.has("pr2"), kept.has("u1")]).size).toBe(1);
      for (const group of computeTurnGroups(parseItems(items)).groups) {
        expect(new Set(group.itemIds.map((id) => kept.has(id))).size).toBe(1);
      }
    }
  });

  test("keeps the newest minRecentMessages messages even when the goal asks for more", async () => {
    const items = chat(20);
    for (const minRecentMessages of [3, 10, 17]) {
      const result = await build(items, { tokenBudget: 200, minRecentMessages });
      const kept = result.includedIds;
      for (const item of items.slice(-minRecentMessages)) expect(kept).toContain(item.id);
      // Whole turns only: an odd count keeps the turn its oldest protected message is in.
      expect(kept.length).toBe(minRecentMessages + (minRecentMessages % 2));
    }
  });

  test("stored system messages do not count as recent messages", async () => {
    const items = [...chat(10), { id: "note", type: "system", text: "stored" } as ItemInput, { id: "u11", type: "user", text: "last" } as ItemInput];
    const result = await build(items, { tokenBudget: 100, minRecentMessages: 3 });
    // The stored system message stays where it was stored (core keeps a later one in place) and is not one of the three.
    expect(result.includedIds).toEqual(["u10", "a10", "note", "u11"]);
  });

  test("never touches the newest user message or the current loop, however many tool rounds it has", async () => {
    const items: ItemInput[] = [...chat(6), ...agentTurn(7, 6, 20, false)];
    const before = structuredClone(items);
    const result = await build(items, { tokenBudget: 200, minRecentMessages: 0 });
    const loop = items.slice(12).map((item) => item.id);
    expect(result.includedIds).toEqual(loop);
    for (const id of loop) expect(result.report.entries.find((entry) => entry.id === id)!.decision).toBe("kept");
    expect(items).toEqual(before);
    // The loop is sent as it was stored: the last user message and every round, results in full.
    const tool = result.request.messages.filter((message) => message.role === "tool");
    expect(tool.map((message) => message.content)).toEqual(items.filter((item) => item.type === "tool-result").map((item) => (item as { output: string }).output));
  });

  test("an assistant reply after the newest user message is part of the current loop", async () => {
    const items = [...chat(8), { id: "u9", type: "user", text: words(5, "q") } as ItemInput, ...agentTurn(9, 2).slice(1)];
    const result = await build(items, { tokenBudget: 150, minRecentMessages: 0 });
    expect(result.includedIds[0]).toBe("u9");
    expect(result.includedIds).toContain("a9");
  });

  test("loopStartId protects everything from that item on", async () => {
    const items = chat(10);
    const plugin = new CompressionPlugin({ strategies: ["sliding-window"], tokenBudget: 200, minRecentMessages: 0 });
    const result = await createPipeline({ plugins: [plugin] }).build(items, { tokenizer: wordTokenizer, compression: { loopStartId: "u7" } });
    expect(result.includedIds).toEqual(items.slice(12).map((item) => item.id));
  });

  test("keeps a summary at the front: it is what is left of the older turns", async () => {
    const items: ItemInput[] = [{ id: "s0", type: "summary", text: "Earlier: the user set up the project.", coveredIds: ["gone1", "gone2"] }, ...chat(12)];
    const result = await build(items, { tokenBudget: 300, minRecentMessages: 2 });
    expect(result.report.compression!.ran).toBe(true);
    expect(result.includedIds[0]).toBe("s0");
    expect(result.report.entries.find((entry) => entry.id === "s0")!.decision).toBe("kept");
    expect(result.request.messages[0]!.content).toContain("Earlier: the user set up the project.");
    expect(result.includedIds.length).toBeLessThan(items.length);
  });

  test("under the trigger it does nothing, and it is not called", async () => {
    const items = chat(5);
    const result = await build(items, { tokenBudget: 10_000 });
    expect(result.includedIds).toEqual(items.map((item) => item.id));
    expect(result.report.compression).toMatchObject({ triggered: false, ran: false, goal: 0, strategies: [{ name: "sliding-window", ran: false, itemsAffected: 0, tokensSaved: 0 }] });
  });

  test("a named instance reports under its name", async () => {
    const result = await build(chat(20), { strategies: [slidingWindow({ name: "window" })], tokenBudget: 300, minRecentMessages: 2 });
    const dropped = result.report.entries.filter((entry) => entry.decision === "dropped");
    expect(dropped.length).toBeGreaterThan(0);
    for (const entry of dropped) expect(entry.plugin).toBe("window");
    expect(result.report.compression!.strategies[0]!.name).toBe("window");
  });
});
