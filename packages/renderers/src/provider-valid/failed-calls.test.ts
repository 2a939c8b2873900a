// Persisted model failures (the loops' LLM_ERROR messages) through every provider: left out by
// default, or one short note each; either way the request breaks none of the provider's rules, and the
// user turns that meet once a failure is gone are merged where the provider wants roles to alternate.
import { createPipeline, FailedCallsPlugin, type ItemInput } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { AnthropicMessagesRendererPlugin } from "../anthropic-messages/anthropic-messages-renderer-plugin.js";
import { GeminiRendererPlugin } from "../gemini/gemini-renderer-plugin.js";
import { OpenAIResponsesRendererPlugin } from "../openai-responses/openai-responses-renderer-plugin.js";
import { checkProviderValid, providerPipeline } from "./check-provider-valid.js";

const FAILURE = [
  "LLM_ERROR",
  "- Code: LLM_HTTP_ERROR",
  "- Status: 529",
  "- Message: anthropic: HTTP 529: Overloaded",
  "",
  "The previous model call failed before it produced an answer. Continue from where the conversation stands.",
].join("\n");

const between: ItemInput[] = [
  { id: "u1", type: "user", text: "What is the weather in Paris?" },
  { id: "e1", type: "error", text: FAILURE },
  { id: "u2", type: "user", text: "continue" },
];

const options = { model: "claude-sonnet-4-6", tokenizer: wordTokenizer, system: "You are terse." } as const;

describe("a failed call between two user turns", () => {
  test("Anthropic: left out, the two user turns go in one user message", async () => {
    const result = await createPipeline({ plugins: [new AnthropicMessagesRendererPlugin()] }).build(between, { ...options, renderer: "anthropic" });
    expect(result.request.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is the weather in Paris?" },
          { type: "text", text: "continue" },
        ],
      },
    ]);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision, entry.messageIndex])).toEqual([
      ["u1", "kept", 0],
      ["e1", "dropped", undefined],
      ["u2", "kept", 0],
    ]);
  });

  test("Anthropic, with notes: user, note, user", async () => {
    const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin(), new FailedCallsPlugin({ failures: "note" })] });
    const result = await pipeline.build(between, { ...options, renderer: "anthropic" });
    expect(result.request.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What is the weather in Paris?" }] },
      { role: "assistant", content: [{ type: "text", text: "(The previous attempt failed: overloaded.)" }] },
      { role: "user", content: [{ type: "text", text: "continue" }] },
    ]);
  });

  test("Gemini: left out, the two user turns go in one user content", async () => {
    const result = await createPipeline({ plugins: [new GeminiRendererPlugin()] }).build(between, { ...options, model: "gemini-3-pro", renderer: "gemini" });
    expect(result.request.contents).toEqual([{ role: "user", parts: [{ text: "What is the weather in Paris?" }, { text: "continue" }] }]);
  });

  test.for([
    { case: "between two user turns", items: between },
    {
      case: "three in a row, after a tool call",
      items: [
        { id: "u1", type: "user", text: "Read a.ts" },
        { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' }] },
        { id: "r1", type: "tool-result", callId: "call_1", output: "export {}" },
        { id: "e1", type: "error", text: FAILURE },
        { id: "e2", type: "error", text: FAILURE },
        { id: "e3", type: "error", text: FAILURE },
      ],
    },
    { case: "a plain assistant message with the loop's text, last", items: [between[0]!, { id: "a1", type: "assistant", text: FAILURE }] },
    { case: "nothing but failures", items: [{ id: "e1", type: "error", text: FAILURE }, { id: "e2", type: "error", text: "LLM_TIMEOUT: no answer" }] },
  ] satisfies Array<{ case: string; items: ItemInput[] }>)("every provider's request is valid, and the failure text is not in it: $case", async ({ items }) => {
    for (const pipeline of [providerPipeline(), createPipeline({ plugins: [new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin(), new FailedCallsPlugin({ failures: "note" })] })]) {
      const checks = await checkProviderValid(pipeline, items);
      expect(checks.flatMap((check) => check.problems.map((problem) => `${check.provider}: ${problem}`))).toEqual([]);
      for (const provider of ["openai", "anthropic", "gemini"] as const) {
        const { request } = await pipeline.build(items, { renderer: provider as "openai", tokenizer: wordTokenizer });
        expect(JSON.stringify(request)).not.toMatch(/LLM_ERROR|LLM_TIMEOUT|Overloaded/);
      }
    }
  });
});
