import { contentHandle, createPipeline, cutMarker, type ItemInput, PluginOptionsError } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import { levelFor, type TruncateToolResultsSettings, truncationCaps } from "./truncate-tool-results.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

/** One turn: a question, a call, its result of `size` words, an answer. */
function toolTurn(turn: number, size: number): ItemInput[] {
  return [
    { id: `u${turn}`, type: "user", text: `question ${turn}` },
    { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_log", arguments: `{"n":${turn}}` }] },
    { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_log", output: words(size, "w") },
    { id: `a${turn}`, type: "assistant", text: `answer ${turn}` },
  ];
}

function plugin(settings: Omit<TruncateToolResultsSettings, "type"> = {}, tokenBudget = 4000) {
  return new CompressionPlugin({ strategies: [{ type: "truncate-tool-results", ...settings }], tokenBudget, minRecentMessages: 10 });
}

const truncated = (result: { report: { entries: ReadonlyArray<{ id: string; decision: string }> } }) =>
  result.report.entries.filter((entry) => entry.decision === "truncated").map((entry) => entry.id);

describe("truncate-tool-results", () => {
  test("cuts a result over its cap in the newest turn to its head and tail, keeping the turn and the call's pairing", async () => {
    const items = [...toolTurn(1, 50), ...toolTurn(2, 5000)];
    const result = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 400 })] }).build(items, { tokenizer: wordTokenizer });
    expect(result.includedIds).toEqual(items.map((item) => item.id));
    expect(truncated(result)).toEqual(["t2"]);
    const output = items[6]!.type === "tool-result" ? items[6]!.output : "";
    const message = result.request.messages.find((candidate) => candidate.role === "tool" && candidate.tool_call_id === "call_2")!;
    const content = message.content as string;
    expect(wordTokenizer.count(content)).toBeLessThanOrEqual(400);
    expect(content.startsWith("w0 w1 w2")).toBe(true);
    expect(content.endsWith("w4998 w4999")).toBe(true);
    expect(content).toContain(contentHandle(output));
    expect(content).toContain("retrieve_context");
    // The call right before its result.
    const callIndex = result.request.messages.findIndex((candidate) => candidate.role === "assistant" && candidate.tool_calls?.[0]?.id === "call_2");
    expect(result.request.messages.indexOf(message)).toBe(callIndex + 1);
    const entry = result.report.entries.find((candidate) => candidate.id === "t2")!;
    expect(entry).toMatchObject({ decision: "truncated", stage: "compress", plugin: "truncate-tool-results", tokens: wordTokenizer.count(content) });
    expect(entry.reason).toMatch(/^tool result over its cap of 400 tokens: its head and tail kept, \d+ tokens \(\d+ characters\) cut from the middle, kept whole as ctx_[0-9a-f]{16}$/);
  });

  test("never touches a result under its cap, and runs before (and without) any trigger", async () => {
    const items = [...toolTurn(1, 399), ...toolTurn(2, 10)];
    const result = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 400 }, 1_000_000)] }).build(items, { tokenizer: wordTokenizer });
    expect(truncated(result)).toEqual([]);
    expect(result.report.compression).toMatchObject({ triggered: false, ran: false, strategies: [{ name: "truncate-tool-results", ran: true, itemsAffected: 0, tokensSaved: 0 }] });
    const big = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 400 }, 1_000_000)] }).build([...toolTurn(1, 401)], { tokenizer: wordTokenizer });
    expect(truncated(big)).toEqual(["t1"]);
    expect(big.report.compression?.triggered).toBe(false);
  });

  test("never cuts a pinned item, and leaves it out of its turn's level: the other results are cut as if it were not there", async () => {
    const items = [...toolTurn(1, 900), ...toolTurn(2, 900)];
    const pinned = items.map((item) => (item.id === "t1" ? { ...item, metadata: { pinned: true } } : item));
    const result = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 400 }, 1_000_000)] }).build(pinned, { tokenizer: wordTokenizer });
    expect(truncated(result)).toEqual(["t2"]);
    const whole = result.request.messages.find((message) => message.role === "tool" && message.tool_call_id === "call_1")!;
    expect(whole.content).toBe(words(900, "w"));
    expect(result.report.entries.find((entry) => entry.id === "t1")?.decision).toBe("kept");
    // Without the pin, both are cut.
    expect(truncated(await createPipeline({ plugins: [plugin({ maxTokensPerResult: 400 }, 1_000_000)] }).build(items, { tokenizer: wordTokenizer }))).toEqual(["t1", "t2"]);
  });

  test("cuts a single oversized text too: a log pasted in the user's question", async () => {
    const items: ItemInput[] = [{ id: "u1", type: "user", text: `Why does this fail?\n${words(3000, "log")}` }];
    const result = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 300 })] }).build(items, { tokenizer: wordTokenizer });
    expect(truncated(result)).toEqual(["u1"]);
    const content = result.request.messages.at(-1)!.content as string;
    expect(content.startsWith("Why does this fail?")).toBe(true);
    expect(wordTokenizer.count(content)).toBeLessThanOrEqual(300);
  });

  test("holds all results of one turn to the turn's cap: the largest are cut first, to one level", async () => {
    const items: ItemInput[] = [
      { id: "u1", type: "user", text: "read them all" },
      {
        id: "c1",
        type: "assistant",
        text: "",
        toolCalls: ["a", "b", "c"].map((name) => ({ id: `call_${name}`, name: "read_log", arguments: "{}" })),
      },
      { id: "ta", type: "tool-result", callId: "call_a", toolName: "read_log", output: words(100, "a") },
      { id: "tb", type: "tool-result", callId: "call_b", toolName: "read_log", output: words(900, "b") },
      { id: "tc", type: "tool-result", callId: "call_c", toolName: "read_log", output: words(1500, "c") },
    ];
    const result = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 1000, maxTokensPerTurn: 1000 })] }).build(items, { tokenizer: wordTokenizer });
    // 100 stays whole; the other two share the rest: (1000 - 100) / 2 = 450 each.
    expect(truncated(result)).toEqual(["tb", "tc"]);
    const counts = result.request.messages.filter((message) => message.role === "tool").map((message) => wordTokenizer.count(message.content as string));
    expect(counts[0]).toBe(100);
    expect(counts[1]).toBeLessThanOrEqual(450);
    expect(counts[2]).toBeLessThanOrEqual(450);
    expect(counts.reduce((total, count) => total + count, 0)).toBeLessThanOrEqual(1000);
  });

  test("same input, same cut: two builds and a fresh pipeline send the same bytes", async () => {
    const items = [...toolTurn(1, 3000), ...toolTurn(2, 3000)];
    const reused = createPipeline({ plugins: [plugin({ maxTokensPerResult: 500 })] });
    const first = await reused.build(items, { tokenizer: wordTokenizer });
    const second = await reused.build(items, { tokenizer: wordTokenizer });
    const fresh = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 500 })] }).build(items, { tokenizer: wordTokenizer });
    expect(JSON.stringify(second.request)).toBe(JSON.stringify(first.request));
    expect(JSON.stringify(fresh.request)).toBe(JSON.stringify(first.request));
    expect(second.report.cache.breaksAt).toBeUndefined();
  });

  test("a cut result no longer triggers the chain: old results are cleared only when the cut request is still over the trigger", async () => {
    const items = [...toolTurn(1, 200), ...toolTurn(2, 200), ...toolTurn(3, 20_000)];
    const result = await createPipeline({
      plugins: [new CompressionPlugin({ strategies: [{ type: "truncate-tool-results", maxTokensPerResult: 500 }, { type: "clear-tool-results", keepRecent: 0, clearAtLeast: 0 }], tokenBudget: 4000, minRecentMessages: 0 })],
    }).build(items, { tokenizer: wordTokenizer });
    expect(truncated(result)).toEqual(["t3"]);
    expect(result.report.entries.filter((entry) => entry.decision === "cleared")).toEqual([]);
    expect(result.report.compression).toMatchObject({ triggered: false });
  });

  test("a cut result that clear-tool-results clears later is offloaded whole, under the handle its marker named", async () => {
    const items = [...toolTurn(1, 3000), ...toolTurn(2, 3000), ...toolTurn(3, 10)];
    const original = (items[2] as { output: string }).output;
    const result = await createPipeline({
      plugins: [new CompressionPlugin({ strategies: [{ type: "truncate-tool-results", maxTokensPerResult: 1000 }, { type: "clear-tool-results", keepRecent: 0, clearAtLeast: 0 }], tokenBudget: 1200, minRecentMessages: 0 })],
    }).build(items, { tokenizer: wordTokenizer });
    const entry = result.report.entries.find((candidate) => candidate.id === "t1")!;
    expect(entry.decision).toBe("cleared");
    expect(entry.history.map((event) => event.decision)).toEqual(["truncated", "cleared"]);
    const handle = contentHandle(original);
    expect(result.report.offloaded.find((text) => text.itemId === "t1")).toEqual({ handle, itemId: "t1", text: original, chars: original.length });
    expect(result.request.messages.find((message) => message.role === "tool" && message.tool_call_id === "call_1")?.content).toContain(`{"handle":"${handle}"}`);
  });

  test("the marker is cutMarker's: the cut and its handle read back from the original", async () => {
    const output = words(2000, "x");
    const items: ItemInput[] = [
      { id: "u1", type: "user", text: "go" },
      { id: "c1", type: "assistant", text: "", toolCalls: [{ id: "call_1", name: "read_log", arguments: "{}" }] },
      { id: "t1", type: "tool-result", callId: "call_1", toolName: "read_log", output },
    ];
    const result = await createPipeline({ plugins: [plugin({ maxTokensPerResult: 200, headShare: 0.8 })] }).build(items, { tokenizer: wordTokenizer });
    const content = result.request.messages.at(-1)!.content as string;
    const match = /\{"handle":"(ctx_[0-9a-f]{16})","from":(\d+),"to":(\d+)\}/.exec(content)!;
    const [from, to] = [Number(match[2]), Number(match[3])];
    const cut = { handle: match[1]!, from, to, chars: to - from, tokens: wordTokenizer.count(output.slice(from, to)) };
    expect(content).toBe(output.slice(0, from) + cutMarker(cut) + output.slice(to));
    // headShare 0.8: more of what is kept is the head.
    expect(from).toBeGreaterThan(output.length - to);
  });
});

describe("truncationCaps: the defaults derived from the budget", () => {
  test.for([
    { budget: 16_000, settings: {}, caps: { perResult: 4000, perTurn: 8000, perText: 4000 } },
    { budget: 128_000, settings: {}, caps: { perResult: 8000, perTurn: 64_000, perText: 8000 } },
    { budget: 300, settings: {}, caps: { perResult: 128, perTurn: 150, perText: 128 } },
    { budget: 16_000, settings: { maxTokensPerResult: 1000, maxTokensPerText: 2000 }, caps: { perResult: 1000, perTurn: 8000, perText: 2000 } },
  ])("budget $budget, settings $settings", ({ budget, settings, caps }) => {
    expect(truncationCaps(budget, settings)).toEqual(caps);
  });
});

describe("levelFor: one level the largest results are cut to", () => {
  test.for([
    { tokens: [100, 200], perTurn: 1000, level: undefined },
    { tokens: [100, 900, 1500], perTurn: 1000, level: 450 },
    { tokens: [5000, 5000], perTurn: 4000, level: 2000 },
    { tokens: [10, 10, 10_000], perTurn: 1000, level: 980 },
    // Never under 128: a marker and a useful head and tail need room.
    { tokens: [1000, 1000, 1000, 1000], perTurn: 200, level: 128 },
  ])("$tokens within $perTurn → $level", ({ tokens, perTurn, level }) => {
    expect(levelFor(tokens.map((count) => ({ tokens: count })), perTurn)).toBe(level);
  });
});

describe("settings", () => {
  test.for([
    [{ maxTokensPerResult: 10 }, "strategies[0].maxTokensPerResult"],
    [{ maxTokensPerTurn: 0 }, "strategies[0].maxTokensPerTurn"],
    [{ headShare: 2 }, "strategies[0].headShare"],
  ] as const)("%o is refused, naming the field", ([settings, field]) => {
    const make = () => new CompressionPlugin({ strategies: [{ type: "truncate-tool-results", ...settings }] });
    expect(make).toThrow(PluginOptionsError);
    expect(make).toThrow(field);
  });
});
