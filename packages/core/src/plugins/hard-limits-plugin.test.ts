import { describe, expect, test } from "vitest";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import type { ItemInput } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { checkRules } from "../validation/check-rules.js";
import { openAIChatRules } from "../renderers/openai-chat/openai-chat-rules.js";
import { contentHandle } from "../text/content-handle.js";
import { cutMarker } from "../text/cut-marker.js";
import { cutMiddle } from "../text/cut-middle.js";
import { PROVIDER_MAX_STRING_LENGTH } from "../validation/portable-limits.js";
import { HardLimitsPlugin } from "./hard-limits-plugin.js";

// 10.6 million characters of log lines, over OpenAI's 10,485,760 per string.
const GIANT = "2026-11-25T20:00:00Z INFO request served in 12 ms\n".repeat(212_100);
const HELD = PROVIDER_MAX_STRING_LENGTH - 485_760;
const REASON = "longer than the 10,485,760 characters a provider accepts in one string";

function conversation(giant: "tool" | "user"): ItemInput[] {
  if (giant === "user") {
    return [
      { id: "u1", type: "user", text: `What went wrong in this log?\n${GIANT}` },
      { id: "a1", type: "assistant", text: "Nothing: every request was served." },
    ];
  }
  return [
    { id: "u1", type: "user", text: "What went wrong in the server log?" },
    { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "call_log", name: "read_log", arguments: "{}" }] },
    { id: "t1", type: "tool-result", callId: "call_log", toolName: "read_log", output: GIANT },
    { id: "a2", type: "assistant", text: "Nothing: every request was served." },
  ];
}

describe("HardLimitsPlugin", () => {
  test.for(["tool", "user"] as const)("a 10.6-million-character %s text with no budget is cut in the middle; the turn is kept, the request valid", { timeout: 60_000 }, async (giant) => {
    expect(GIANT.length).toBeGreaterThan(10_600_000);
    const input = conversation(giant);
    const result = await createPipeline().build(input);
    const cutId = giant === "tool" ? "t1" : "u1";
    const original = giant === "tool" ? GIANT : `What went wrong in this log?\n${GIANT}`;
    // The default tokenizer is the chars/4 estimate, the same as cutMiddle without one.
    const expected = cutMiddle(original, { maxChars: HELD });

    // Every item is sent: the user's question and the assistant's answer stay.
    expect(result.report.entries.map((entry) => [entry.id, entry.decision])).toEqual(input.map((item) => [item.id, item.id === cutId ? "truncated" : "kept"]));
    const entry = result.report.entries.find((candidate) => candidate.id === cutId)!;
    const event = { decision: "truncated", stage: "repair-orphans", plugin: "HardLimitsPlugin", reason: REASON, cut: expected.cut };
    expect(entry).toMatchObject({ ...event, history: [event], tokensSaved: entry.tokensSaved });
    expect(entry.cut!.handle).toBe(contentHandle(original));
    expect(entry.tokensSaved).toBeGreaterThan(0);
    expect(result.report.offloaded).toEqual([{ handle: contentHandle(original), itemId: cutId, text: original, chars: original.length }]);

    const messages = (result.request as { messages: Array<{ role: string; content: string | null }> }).messages;
    const longest = Math.max(...messages.map((message) => message.content?.length ?? 0));
    expect(longest).toBeLessThanOrEqual(HELD);
    expect(messages.some((message) => message.content === expected.text)).toBe(true);
    expect(expected.text).toContain(cutMarker(expected.cut!));
    expect(messages.at(-1)).toEqual({ role: "user", content: "Continue." });
    if (giant === "tool") expect(messages[0]).toEqual({ role: "user", content: "What went wrong in the server log?" });
    expect(messages.some((message) => message.role === "assistant" && message.content === "Nothing: every request was served.")).toBe(true);
    expect(checkRules(openAIChatRules, result.request, {})).toEqual([]);
  });

  test("a fresh and a reused pipeline give byte-identical requests", async () => {
    const input = conversation("tool");
    const reused = createPipeline();
    const first = JSON.stringify((await reused.build(input)).request);
    await reused.build([...input, { id: "u2", type: "user", text: "And yesterday?" }]);
    const again = JSON.stringify((await reused.build(input)).request);
    const fresh = JSON.stringify((await createPipeline().build(input)).request);
    expect(again).toBe(first);
    expect(fresh).toBe(first);
  }, 60_000);

  test("a pipeline reused as the history grows, long texts appended among short ones, and then loses its end gives what a new pipeline gives", async () => {
    // Small limits: the plugin remembers where the long texts were and looks only at what was appended.
    const plugin = () => new HardLimitsPlugin({ maxChars: 10_000, wrappingRoom: 2_000 });
    const long = (n: number) => `line ${n} of a long log\n`.repeat(1_000);
    const items: ItemInput[] = [];
    for (let n = 0; n < 6; n++) {
      items.push(
        { id: `u${n}`, type: "user", text: n % 3 === 1 ? long(n) : `Read log ${n}.` },
        { id: `a${n}`, type: "assistant", text: "", toolCalls: [{ id: `call_${n}`, name: "read_log", arguments: "{}" }] },
        { id: `t${n}`, type: "tool-result", callId: `call_${n}`, toolName: "read_log", output: n % 2 === 0 ? long(n) : "ok" },
      );
    }
    const outcome = async (pipeline: ReturnType<typeof createPipeline>, history: ItemInput[]) => {
      const { request, report } = await pipeline.build(history);
      // report.cache compares with the pipeline's previous build: the one field that depends on what it built before.
      const { cache: _cache, ...rest } = report;
      return JSON.stringify({ request, report: rest, allEntries: report.allEntries });
    };
    const reused = createPipeline({ plugins: [plugin()] });
    const lengths = [1, 3, 4, 9, 12, 18, 10, 18, 5];
    for (const length of lengths) {
      const history = items.slice(0, length);
      expect(await outcome(reused, history)).toBe(await outcome(createPipeline({ plugins: [plugin()] }), history));
    }
  });

  test("texts within the limit are left alone; maxChars and wrappingRoom set the length held to", async () => {
    const input: ItemInput[] = [
      { id: "u1", type: "user", text: "x".repeat(30_000) },
      { id: "u2", type: "user", text: "y".repeat(19_000) },
    ];
    const result = await createPipeline({ plugins: [new HardLimitsPlugin({ maxChars: 25_000, wrappingRoom: 5_000 })] }).build(input);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision, entry.reason])).toEqual([
      ["u1", "truncated", "longer than the 25,000 characters a provider accepts in one string"],
      ["u2", "kept", "sent in message 1"],
    ]);
    const content = (result.request as { messages: Array<{ content: string }> }).messages[0]!.content;
    expect(content.length).toBeLessThanOrEqual(20_000);
    const near = await createPipeline({ plugins: [new HardLimitsPlugin({ maxChars: 25_000, wrappingRoom: 10_000 })] }).build(input);
    expect(near.report.entries.map((entry) => entry.reason)).toEqual([
      "longer than the 25,000 characters a provider accepts in one string",
      "within 10,000 characters of the 25,000 a provider accepts in one string: no room left for the renderer's wrapping",
    ]);
  });

  test("switched off with defaults: { hardLimits: false }, the too-long text is left to RepairOrphansPlugin's own cap", async () => {
    const result = await createPipeline({ defaults: { hardLimits: false } }).build(conversation("tool"));
    expect(result.report.entries.find((entry) => entry.id === "t1")!.decision).toBe("repaired");
    expect(result.report.offloaded).toEqual([]);
  }, 60_000);

  test.for([
    [{ maxChars: PROVIDER_MAX_STRING_LENGTH + 1 }, "maxChars", "Too big: expected number to be <=10485760"],
    [{ maxChars: 20_000, wrappingRoom: 16_000 }, "wrappingRoom", "leaves fewer than 5,000 characters under maxChars for the cut text and its marker"],
    [{ maxCharacters: 10 }, "", 'Unrecognized key: "maxCharacters"'],
  ] as const)("%j is refused naming the field", ([options, field, message]) => {
    let error: unknown;
    try {
      new HardLimitsPlugin(options as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect((error as Error).message).toBe(`Invalid options for HardLimitsPlugin:\n✖ ${message}${field === "" ? "" : `\n  → at ${field}`}`);
  });
});
