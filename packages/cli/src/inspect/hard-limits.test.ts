// A string longer than a provider accepts, with no budget: every renderer's request is valid, the
// turn is kept, and the inspector shows the item truncated with the handle its whole text is kept under.
import { checkRules, contentHandle, createPipeline, type ItemInput, openAIChatRules, PROVIDER_MAX_STRING_LENGTH } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, anthropicMessagesRules, GeminiRendererPlugin, geminiRules, OpenAIResponsesRendererPlugin, openAIResponsesRules } from "@ctxpipe/renderers";
import { checkProviderValid, providerPipeline } from "@ctxpipe/renderers/testing";
import { XmlRendererPlugin } from "@ctxpipe/xml-renderer";
import { afterEach, describe, expect, test } from "vitest";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// 10,605,000 characters of log lines: over OpenAI's 10,485,760 per string.
const GIANT = "2026-11-25T20:00:00Z INFO request served in 12 ms\n".repeat(212_100);
const QUESTION = "What went wrong in the server log?";
const ANSWER = "Nothing: every request was served.";

const conversation: ItemInput[] = [
  { id: "u1", type: "user", text: QUESTION },
  { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "call_log", name: "read_log", arguments: "{}" }] },
  { id: "t1", type: "tool-result", callId: "call_log", toolName: "read_log", output: GIANT },
  { id: "a2", type: "assistant", text: ANSWER },
];

const RULES = { openai: openAIChatRules, "openai-responses": openAIResponsesRules, anthropic: anthropicMessagesRules, gemini: geminiRules } as const;

describe("a 10.6-million-character tool result with no budget", () => {
  test("builds for every renderer: provider-valid, no string over the limit, the question and the answer sent, the result reported truncated", { timeout: 120_000 }, async () => {
    expect(GIANT.length).toBeGreaterThan(10_600_000);
    const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin(), new XmlRendererPlugin()] });
    for (const renderer of ["openai", "openai-responses", "anthropic", "gemini", "xml"] as const) {
      const result = await pipeline.build(conversation, { renderer: renderer as "openai" });
      const sent = JSON.stringify(result.request);
      expect(result.report.violations, renderer).toEqual([]);
      if (renderer !== "xml") expect(checkRules(RULES[renderer], result.request, {}), renderer).toEqual([]);
      expect(longestString(result.request), renderer).toBeLessThanOrEqual(PROVIDER_MAX_STRING_LENGTH);
      expect(sent.includes(QUESTION) && sent.includes(ANSWER), renderer).toBe(true);
      expect(result.report.entries.map((entry) => entry.decision), renderer).toEqual(["kept", "kept", "truncated", "kept"]);
      const entry = result.report.entries[2]!;
      expect({ plugin: entry.plugin, reason: entry.reason, handle: entry.cut?.handle }, renderer).toEqual({
        plugin: "HardLimitsPlugin",
        reason: "longer than the 10,485,760 characters a provider accepts in one string",
        handle: contentHandle(GIANT),
      });
      expect(sent, renderer).toContain(`The whole text is kept as ${contentHandle(GIANT)}`);
      expect(result.report.offloaded.map(({ handle, itemId, chars }) => ({ handle, itemId, chars })), renderer).toEqual([{ handle: contentHandle(GIANT), itemId: "t1", chars: GIANT.length }]);
    }
    // The package's own provider-valid promise, on the pipeline it checks with.
    expect((await checkProviderValid(providerPipeline(), conversation)).flatMap((check) => check.problems.map((problem) => `${check.provider}: ${problem}`))).toEqual([]);
  });

  test("a 10.6-million-character user message too: cut, provider-valid for every renderer, its head and the answer sent", { timeout: 120_000 }, async () => {
    const pasted = `${QUESTION}\n${GIANT}`;
    const input: ItemInput[] = [
      { id: "u1", type: "user", text: pasted },
      { id: "a1", type: "assistant", text: ANSWER },
      { id: "u2", type: "user", text: "Thanks." },
    ];
    const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin(), new XmlRendererPlugin()] });
    for (const renderer of ["openai", "openai-responses", "anthropic", "gemini", "xml"] as const) {
      const result = await pipeline.build(input, { renderer: renderer as "openai" });
      const sent = JSON.stringify(result.request);
      expect(result.report.violations, renderer).toEqual([]);
      if (renderer !== "xml") expect(checkRules(RULES[renderer], result.request, {}), renderer).toEqual([]);
      expect(longestString(result.request), renderer).toBeLessThanOrEqual(PROVIDER_MAX_STRING_LENGTH);
      expect(sent.includes(QUESTION) && sent.includes(ANSWER) && sent.includes("Thanks."), renderer).toBe(true);
      expect(result.report.entries.map((entry) => [entry.id, entry.decision, entry.cut?.handle]), renderer).toEqual([
        ["u1", "truncated", contentHandle(pasted)],
        ["a1", "kept", undefined],
        ["u2", "kept", undefined],
      ]);
      expect(result.report.offloaded.map(({ handle, itemId }) => ({ handle, itemId })), renderer).toEqual([{ handle: contentHandle(pasted), itemId: "u1" }]);
    }
  });

  test("a fresh and a reused pipeline give byte-identical requests, for every renderer", { timeout: 120_000 }, async () => {
    const plugins = () => [new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin(), new XmlRendererPlugin()];
    const reused = createPipeline({ plugins: plugins() });
    for (const renderer of ["openai", "openai-responses", "anthropic", "gemini", "xml"] as const) {
      const first = JSON.stringify((await reused.build(conversation, { renderer: renderer as "openai" })).request);
      const again = JSON.stringify((await reused.build(conversation, { renderer: renderer as "openai" })).request);
      const fresh = JSON.stringify((await createPipeline({ plugins: plugins() }).build(conversation, { renderer: renderer as "openai" })).request);
      expect(again === first && fresh === first, renderer).toBe(true);
    }
  });

  test("ctxpipe inspect shows the result truncated, with the handle its whole text is kept under", { timeout: 120_000 }, async () => {
    const made = await tempFiles({
      "c.jsonl": jsonl([
        { id: "u1", role: "user", content: QUESTION },
        { id: "a1", role: "assistant", content: "", tool_calls: [{ id: "call_log", type: "function", function: { name: "read_log", arguments: "{}" } }] },
        { id: "t1", role: "tool", tool_call_id: "call_log", toolName: "read_log", content: GIANT },
        { id: "a2", role: "assistant", content: ANSWER },
      ]),
    });
    cleanups.push(made.cleanup);
    // No compression and a budget far above the text: the hard limit is what cuts, as with no budget.
    const table = await runInProcess(
      ["inspect", made.path("c.jsonl"), "--compression", "none", "--model", "local-model", "--fallback-encoding", "o200k_base", "--max-tokens", "6000000", "--reserve-output", "0", "--all"],
      { columns: 400 },
    );
    expect({ code: table.code, stderr: table.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(table.stdout).toContain("Decisions: 3 kept · 1 truncated");
    const row = table.stdout.split("\n").find((line) => line.includes("truncated") && line.includes("t1"));
    expect(row).toContain(`longer than the 10,485,760 characters a provider accepts in one string; the whole text is kept as ${contentHandle(GIANT)}`);
  });
});

function longestString(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (Array.isArray(value)) return Math.max(0, ...value.map(longestString));
  if (typeof value === "object" && value !== null) return Math.max(0, ...Object.values(value).map(longestString));
  return 0;
}
