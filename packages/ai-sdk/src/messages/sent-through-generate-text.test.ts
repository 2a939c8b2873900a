// The rendered request, sent as it is through the AI SDK's own generateText (ai 7, and ai 6 installed
// as "ai-v6") to a mock model: for any broken history the SDK refuses nothing (no
// MissingToolResultsError, no InvalidPromptError), and the model receives every message.
import { createPipeline, type Item } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { generateText, MissingToolResultsError, type ModelMessage } from "ai";
import { generateText as generateTextV6 } from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { MockLanguageModelV4 } from "ai/test";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { modelMessageHistories } from "./__fixtures__/arbitrary-histories.js";
import { brokenHistory, uiChatHistory } from "./__fixtures__/histories.js";
import { AiSdkRendererPlugin } from "./ai-sdk-renderer-plugin.js";
import { importModelMessages } from "./import-model-messages.js";
import { importUIMessages } from "./import-ui-messages.js";

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const reply = { content: [{ type: "text" as const, text: "ok" }], finishReason: { unified: "stop" as const, raw: "stop" }, usage, warnings: [] };

const pipeline = createPipeline({ plugins: [new AiSdkRendererPlugin()] });
const build = (items: ReadonlyArray<Item>) => pipeline.build(items, { renderer: "ai-sdk", tokenizer: wordTokenizer, system: "Be brief." });

/** The prompt the mock model received, without the system message, as role sequences. */
async function sentWithV7(request: { system?: string; messages: ModelMessage[] }) {
  const model = new MockLanguageModelV4({ doGenerate: reply });
  await generateText({ model, ...request });
  return model.doGenerateCalls[0]?.prompt ?? [];
}

describe("the rendered request through generateText", () => {
  test("without ctxpipe, the AI SDK refuses the broken history", async () => {
    const model = new MockLanguageModelV4({ doGenerate: reply });
    await expect(generateText({ model, messages: brokenHistory(), allowSystemInMessages: true })).rejects.toThrow(MissingToolResultsError);
  });

  test("with ctxpipe, the broken history is sent, every message of the request reaching the model", async () => {
    const { request } = await build(importModelMessages(brokenHistory()));
    const prompt = await sentWithV7(request);
    expect(prompt.map((message) => message.role)).toEqual(["system", ...request.messages.map((message) => message.role)]);
  });

  test("a UI chat with a provider-executed search, an approval and an aborted stream is sent, ai 7 and ai 6", async () => {
    const { request } = await build(importUIMessages(uiChatHistory()));
    const prompt = await sentWithV7(request);
    expect(prompt.map((message) => message.role)).toEqual(["system", ...request.messages.map((message) => message.role)]);
    const v6 = new MockLanguageModelV3({ doGenerate: reply });
    await generateTextV6({ ...(request as unknown as { system?: string; messages: Parameters<typeof generateTextV6>[0]["messages"] & object }), model: v6 });
    expect(v6.doGenerateCalls).toHaveLength(1);
  });

  test("for any broken ModelMessage history, ai 7 and ai 6 send the request as it is", async () => {
    await fc.assert(
      fc.asyncProperty(modelMessageHistories, async (messages) => {
        let request: { system?: string; messages: ModelMessage[] };
        try {
          ({ request } = await build(importModelMessages(messages)));
        } catch {
          return; // nothing to send: refused with a typed error, which the rules tests cover
        }
        const prompt = await sentWithV7(request);
        // The SDK joins tool messages in a row; the other messages reach the model one for one.
        const withoutToolRuns = (roles: string[]) => roles.filter((role, index) => role !== "tool" || roles[index - 1] !== "tool");
        expect(withoutToolRuns(prompt.map((message) => message.role))).toEqual(withoutToolRuns(["system", ...request.messages.map((message) => message.role)]));
        const v6 = new MockLanguageModelV3({ doGenerate: reply });
        // Typed against ai 7: a project on ai 6 resolves this package's types against its own ai.
        await generateTextV6({ ...(request as unknown as { system?: string; messages: Parameters<typeof generateTextV6>[0]["messages"] & object }), model: v6 });
        expect(v6.doGenerateCalls).toHaveLength(1);
      }),
      { numRuns: 80 },
    );
  });
});
