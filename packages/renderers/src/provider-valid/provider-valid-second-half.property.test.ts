// The provider-valid promise over generated adversarial conversations: every trap listed in
// reference/providers.md, rendered for OpenAI, Anthropic and Gemini. 10,000 conversations a run,
// split over two files so both cores work.
import fc from "fast-check";
import { adversarialConversations } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { checkProviderValid, providerPipeline } from "./check-provider-valid.js";

const RUNS_PER_FILE = 5_000;

describe("provider-valid, second half", () => {
  test("openai, anthropic and gemini requests break no rule, lose nothing silently and keep the newest user message", async () => {
    const pipeline = providerPipeline();
    await fc.assert(
      fc.asyncProperty(adversarialConversations(fc), async (items) => {
        const checks = await checkProviderValid(pipeline, items);
        expect(checks.flatMap((check) => check.problems.map((problem) => `${check.provider}: ${problem}`))).toEqual([]);
      }),
      { numRuns: RUNS_PER_FILE, seed: 5001 },
    );
  }, 300_000);
});
