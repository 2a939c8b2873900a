import { createPipeline, type ItemInput, type Items, PluginError, PluginOptionsError } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { COMPRESSION_NOTICE_ID, type CompressionNoticeSummary, compressionNoticeText } from "./compression-notice.js";
import { CompressionPlugin, type CompressionPluginOptions } from "./compression-plugin.js";
import type { CompressionStrategy } from "./compression-strategy.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

function toolChat(turns: number, size = 100): ItemInput[] {
  return Array.from({ length: turns }, (_, index): ItemInput[] => {
    const turn = index + 1;
    return [
      { id: `u${turn}`, type: "user", text: `question ${turn}` },
      { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read", arguments: "{}" }] },
      { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read", output: words(size, "w") },
      { id: `a${turn}`, type: "assistant", text: `answer ${turn}` },
    ];
  }).flat();
}

const none = { items: 0, tokens: 0 };
const summary = (fields: Partial<CompressionNoticeSummary>): CompressionNoticeSummary => ({ cleared: none, truncated: none, summarized: none, dropped: none, offloaded: false, ...fields });
const pipelineWith = (options: CompressionPluginOptions) => createPipeline({ plugins: [new CompressionPlugin(options)] });
const systemText = (request: { messages: ReadonlyArray<{ role: string; content: unknown }> }) => request.messages[0]?.role === "system" ? (request.messages[0].content as string) : "";

describe("compressionNoticeText", () => {
  test.for([
    { name: "nothing left out", fields: {}, text: undefined },
    {
      name: "cleared and cut, offloaded",
      fields: { cleared: { items: 3, tokens: 12_340 }, truncated: { items: 1, tokens: 9876 }, offloaded: true },
      text: "Context note: to fit the context window, 3 old tool results were cleared (12,340 tokens) and long tool results were cut to their start and end. Read cut or cleared text back with retrieve_context and the handle its marker names.",
    },
    {
      name: "one of each kind, nothing offloaded",
      fields: { cleared: { items: 1, tokens: 1 }, summarized: { items: 1, tokens: 200 }, dropped: { items: 4, tokens: 1_234_567 } },
      text: "Context note: to fit the context window, 1 old tool result was cleared (1 token), 1 earlier message was summarized (200 tokens) and 4 earlier messages were left out (1,234,567 tokens).",
    },
  ])("$name", ({ fields, text }) => {
    expect(compressionNoticeText(summary(fields))).toBe(text);
  });
});

describe("the notice in the request", () => {
  const options: CompressionPluginOptions = {
    strategies: [{ type: "clear-tool-results", keepRecent: 0, clearAtLeast: 0, placeholder: "[cleared {tool} {handle}]" }, "sliding-window"],
    tokenBudget: 1500,
    minRecentMessages: 0,
    notice: true,
  };

  test("present, as its own system part after the application's, when something was left out", async () => {
    const result = await pipelineWith(options).build(toolChat(20), { tokenizer: wordTokenizer, system: "Be brief." });
    const parts = result.report.systemParts;
    expect(parts.map((part) => part.id)).toEqual(["system-0", COMPRESSION_NOTICE_ID]);
    const notice = parts.find((part) => part.id === COMPRESSION_NOTICE_ID)!;
    expect(notice).toMatchObject({ addedBy: "CompressionPlugin" });
    expect(notice.text).toMatch(/^Context note: to fit the context window, \d+ old tool results were cleared \([\d,]+ tokens\)/);
    expect(notice.text).toContain("retrieve_context");
    expect(systemText(result.request).endsWith(notice.text)).toBe(true);
    expect(systemText(result.request).startsWith("Be brief.")).toBe(true);
  });

  test("absent when nothing was left out, and by default", async () => {
    const small = await pipelineWith(options).build(toolChat(2), { tokenizer: wordTokenizer, system: "Be brief." });
    expect(small.report.systemParts.map((part) => part.id)).not.toContain(COMPRESSION_NOTICE_ID);
    const { notice: _, ...withoutNotice } = options;
    const off = await pipelineWith(withoutNotice).build(toolChat(20), { tokenizer: wordTokenizer, system: "Be brief." });
    expect(off.report.entries.some((entry) => entry.decision === "cleared")).toBe(true);
    expect(off.report.systemParts.map((part) => part.id)).not.toContain(COMPRESSION_NOTICE_ID);
  });

  test("byte-identical across builds with the same compression state, reused or fresh", async () => {
    const items = toolChat(20);
    const reused = pipelineWith(options);
    const first = await reused.build(items, { tokenizer: wordTokenizer });
    const second = await reused.build(items, { tokenizer: wordTokenizer });
    const fresh = await pipelineWith(options).build(items, { tokenizer: wordTokenizer });
    expect(systemText(first.request)).toMatch(/^Context note/);
    expect(JSON.stringify(second.request)).toBe(JSON.stringify(first.request));
    expect(JSON.stringify(fresh.request)).toBe(JSON.stringify(first.request));
    expect(second.report.cache.breaksAt).toBeUndefined();
  });

  test("the same summary object when a rebuild made the same decisions with the same savings", async () => {
    const seen: CompressionNoticeSummary[] = [];
    const pipeline = pipelineWith({
      ...options,
      notice: {
        text: (made) => {
          seen.push(made);
          return "noted";
        },
      },
    });
    const items = toolChat(20);
    await pipeline.build(items, { tokenizer: wordTokenizer });
    await pipeline.build(items, { tokenizer: wordTokenizer });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.cleared.items).toBeGreaterThan(0);
    expect(seen[1]).toBe(seen[0]);
  });

  test("written by { text } from the build's summary; an empty text adds no part", async () => {
    const seen: CompressionNoticeSummary[] = [];
    const result = await pipelineWith({ ...options, notice: {
        text: (made) => {
          seen.push(made);
          return `left out: ${made.cleared.items + made.dropped.items}`;
        },
      },
    }).build(toolChat(20), { tokenizer: wordTokenizer });
    expect(seen).toHaveLength(1);
    const cleared = result.report.entries.filter((entry) => entry.decision === "cleared");
    const dropped = result.report.entries.filter((entry) => entry.decision === "dropped");
    expect(seen[0]).toEqual({
      cleared: { items: cleared.length, tokens: cleared.reduce((total, entry) => total + entry.tokensSaved!, 0) },
      truncated: none,
      summarized: none,
      dropped: { items: dropped.length, tokens: expect.any(Number) },
      // The placeholder names each cleared result's handle: the originals are offloaded.
      offloaded: true,
    });
    expect(systemText(result.request)).toBe(`left out: ${cleared.length + dropped.length}`);
    const empty = await pipelineWith({ ...options, notice: { text: () => "" } }).build(toolChat(20), { tokenizer: wordTokenizer });
    expect(empty.report.systemParts).toEqual([]);
  });

  test("a notice option that is neither a boolean nor { text } is refused, naming the field", () => {
    expect(() => new CompressionPlugin({ strategies: ["sliding-window"], notice: "yes" as never })).toThrow(PluginOptionsError);
    expect(() => new CompressionPlugin({ strategies: ["sliding-window"], notice: "yes" as never })).toThrow(/notice/);
  });
});

describe('strategies that run "always"', () => {
  const shortenNewest: CompressionStrategy = {
    name: "shorten-newest",
    runs: "always",
    compress: (items: Items) => items.map((item, index) => (index === items.length - 2 && item.type === "tool-result" ? { ...item, output: "short" } : item)),
  };

  test("run without a trigger and may shorten the protected current turn in place", async () => {
    const items = toolChat(2);
    const result = await pipelineWith({ strategies: [shortenNewest], tokenBudget: 1_000_000 }).build(items, { tokenizer: wordTokenizer });
    expect(result.report.compression).toMatchObject({ triggered: false, ran: true, strategies: [{ name: "shorten-newest", ran: true, itemsAffected: 1 }] });
    expect(result.request.messages.find((message) => message.role === "tool" && message.tool_call_id === "call_2")?.content).toBe("short");
  });

  test.for([
    ["removes an item", (items: Items) => items.slice(1), /returned 7 items for 8/],
    ["reorders items", (items: Items) => [items[1]!, items[0]!, ...items.slice(2)], /moved, removed or retyped item "u1"/],
  ] as const)("one that %s fails the build, naming it", async ([, compress, message]) => {
    const strategy: CompressionStrategy = { name: "bad-always", runs: "always", compress };
    const build = pipelineWith({ strategies: [strategy], tokenBudget: 1_000_000 }).build(toolChat(2), { tokenizer: wordTokenizer });
    await expect(build).rejects.toThrow(PluginError);
    await expect(pipelineWith({ strategies: [strategy], tokenBudget: 1_000_000 }).build(toolChat(2), { tokenizer: wordTokenizer })).rejects.toThrow(message);
  });

  test("do nothing with compression: false or without a budget", async () => {
    const off = await pipelineWith({ strategies: [shortenNewest], tokenBudget: 1000 }).build(toolChat(2), { tokenizer: wordTokenizer, compression: false });
    expect(off.report.compression?.strategies).toEqual([{ name: "shorten-newest", ran: false, itemsAffected: 0, tokensSaved: 0 }]);
    const unbudgeted = await pipelineWith({ strategies: [shortenNewest] }).build(toolChat(2), { tokenizer: wordTokenizer });
    expect(unbudgeted.report.compression?.strategies).toEqual([{ name: "shorten-newest", ran: false, itemsAffected: 0, tokensSaved: 0 }]);
  });
});
