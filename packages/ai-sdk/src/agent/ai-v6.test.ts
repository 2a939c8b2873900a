// The same context with `ai` 6 (installed here as the alias "ai-v6") and its MockLanguageModelV3:
// prepareStep works as in ai 7 (ai 6 passes the caller's history every step and no instructions, so
// the system prompt is given to ctxpipe); the middleware gets v3 prompts (file data not wrapped) and
// answers in v3. The casts are only for this test: a project on ai 6 resolves this package's types
// against its own `ai`.
import { generateText, MissingToolResultsError, stepCountIs, tool, wrapLanguageModel } from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { brokenHistory } from "./__fixtures__/broken-history.js";
import { sentPromptProblems } from "./__fixtures__/check-sent-prompt.js";
import { createAiSdkContext } from "./index.js";
import type { ProviderPrompt } from "./provider-prompt.js";

const usage = { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } };

function scriptedV3Model() {
  const prompts: ProviderPrompt[] = [];
  const model = new MockLanguageModelV3({
    modelId: "gpt-4o",
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt as unknown as ProviderPrompt);
      if (prompts.length === 1) {
        return {
          content: [{ type: "tool-call", toolCallId: "call_step0", toolName: "train", input: '{"to":"Paris"}' }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      return { content: [{ type: "text", text: "The 8:04 TGV." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  return { model, prompts };
}

const tools = { train: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}.` }) };

describe("with ai 6", () => {
  test("without ctxpipe, ai 6 also refuses the call an aborted stream left unanswered", async () => {
    const { model, prompts } = scriptedV3Model();
    const failure = await generateText({ model, messages: brokenHistory(30).messages as never, tools, stopWhen: stepCountIs(4) }).catch((error: unknown) => error);
    expect(MissingToolResultsError.isInstance(failure)).toBe(true);
    expect(prompts).toHaveLength(0);
  });

  test("prepareStep: a broken, over-budget loop completes and every prompt is valid and fits", async () => {
    const { model, prompts } = scriptedV3Model();
    const budgets: number[] = [];
    const context = createAiSdkContext({ maxTokens: 3_000, reserveOutputTokens: 500, system: "You plan trips.", tools: tools as never, onBuild: (result) => void budgets.push(result.tokenCount) });
    const result = await generateText({ model, messages: brokenHistory(30).messages as never, tools, stopWhen: stepCountIs(4), prepareStep: context.prepareStep as never });
    expect(result.text).toBe("The 8:04 TGV.");
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) {
      expect(sentPromptProblems(prompt)).toEqual([]);
      expect(prompt[0]).toEqual({ role: "system", content: "You plan trips." });
    }
    expect(budgets.every((tokens) => tokens <= 2_500)).toBe(true);
  });

  test("the middleware: the double write and the orphan are repaired in a v3 prompt, file data stays unwrapped", async () => {
    const { model, prompts } = scriptedV3Model();
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const { messages } = brokenHistory(30, { unanswered: false });
    const withImage = [...messages.slice(0, -1), { role: "user", content: [{ type: "text", text: "Which trains go to Paris tomorrow?" }, { type: "image", image: png, mediaType: "image/png" }] }];
    const context = createAiSdkContext({ maxTokens: 3_000, reserveOutputTokens: 500 });
    const wrapped = wrapLanguageModel({ model, middleware: context.middleware as never });
    const result = await generateText({ model: wrapped, system: "You plan trips.", messages: withImage as never, tools, stopWhen: stepCountIs(4) });
    expect(result.text).toBe("The 8:04 TGV.");
    for (const prompt of prompts) expect(sentPromptProblems(prompt)).toEqual([]);
    const lastUser = prompts[0]!.at(-1)!;
    expect(lastUser.content).toEqual([
      { type: "text", text: "Which trains go to Paris tomorrow?" },
      expect.objectContaining({ type: "file", mediaType: "image/png", data: png }),
    ]);
  });

  test("context.tools works in ai 6's generateText: the model reads a cut result back through retrieve_context", async () => {
    const log = Array.from({ length: 400 }, (_, line) => `${String(line).padStart(4, "0")} GET /api/items/${line} 200 OK`).join("\n");
    const prompts: ProviderPrompt[] = [];
    const model = new MockLanguageModelV3({
      modelId: "gpt-4o",
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt as unknown as ProviderPrompt);
        const marker = /call retrieve_context with (\{"handle":"ctx_[0-9a-f]+","from":\d+,"to":\d+\})/.exec(JSON.stringify(prompt).replaceAll('\\"', '"'));
        if (prompts.length === 1) return { content: [{ type: "tool-call", toolCallId: "call_read", toolName: "retrieve_context", input: marker![1]! }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
        return { content: [{ type: "text", text: "Read." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      },
    });
    const context = createAiSdkContext({ maxTokens: 4_000, reserveOutputTokens: 500, retrieveMaxChars: 100 });
    const messages = [
      { role: "user", content: "Read the log." },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_log", toolName: "read_log", input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_log", toolName: "read_log", output: { type: "text", value: log } }] },
      { role: "user", content: "What did you not see?" },
    ];
    const result = await generateText({ model, messages: messages as never, tools: { ...tools, ...context.tools } as unknown as typeof tools, stopWhen: stepCountIs(3), prepareStep: context.prepareStep as never });
    expect(result.text).toBe("Read.");
    const reply = JSON.stringify(prompts[1]!.at(-1));
    const from = Number(/"from\\":(\d+)/.exec(JSON.stringify(prompts[0]))![1]);
    expect(reply).toContain(JSON.stringify(log.slice(from, from + 100)).slice(1, -1));
  });
});
