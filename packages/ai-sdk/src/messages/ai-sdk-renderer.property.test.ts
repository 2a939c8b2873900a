// The "ai-sdk" renderer's promises, for any conversation: the request breaks none of aiSdkRules
// (random and adversarial item lists, core's traps included), every piece of content reaches the
// request or the report says why, and the plugin's cached count is the count of the request it sent.
import { createPipeline, type ItemInput } from "@ctxpipe/core";
import { adversarialConversations, assertRendererFollowsRules, checkRendererCarriesContent, wordTokenizer } from "@ctxpipe/core/testing";
import { modelMessageSchema } from "ai";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { AiSdkRendererPlugin } from "./ai-sdk-renderer-plugin.js";
import { aiSdkRules } from "./ai-sdk-rules.js";
import { countAiSdkRequestTokens } from "./count-ai-sdk-tokens.js";

describe("the ai-sdk renderer, for any conversation", () => {
  test("breaks none of aiSdkRules", async () => {
    await assertRendererFollowsRules(fc, { renderer: "ai-sdk", plugins: new AiSdkRendererPlugin(), rules: aiSdkRules, numRuns: 150 });
  });

  test("carries every piece of content, or the report says why", async () => {
    const problems = await checkRendererCarriesContent({
      renderer: "ai-sdk",
      plugins: new AiSdkRendererPlugin(),
      knownOmissions: {},
    });
    expect(problems).toEqual([]);
  });

  test("gives messages the AI SDK's own schema accepts, counted as countAiSdkRequestTokens counts them, through rebuilds", async () => {
    // One pipeline for every build: the plugin's per-item cache must agree with a fresh count each time.
    const pipeline = createPipeline({ plugins: [new AiSdkRendererPlugin()] });
    await fc.assert(
      fc.asyncProperty(adversarialConversations(fc), async (items: ReadonlyArray<ItemInput>) => {
        let result: Awaited<ReturnType<typeof pipeline.build<"ai-sdk">>>;
        try {
          result = await pipeline.build(items, { renderer: "ai-sdk", tokenizer: wordTokenizer, system: "Be brief." });
        } catch {
          return; // refusals are the rules test's business
        }
        for (const message of result.request.messages) expect(modelMessageSchema.safeParse(message).error).toBeUndefined();
        expect(result.tokenCount).toBe(countAiSdkRequestTokens(result.request, wordTokenizer));
      }),
      { numRuns: 100 },
    );
  });
});
