// The provider-valid property, run by the two test files that split the 10,000 conversations of a
// CI run between both cores.
import { adversarialConversations } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { expect } from "vitest";
import { checkProviderValid, providerPipeline } from "./check-provider-valid.js";

export async function assertProviderValid(seed: number, numRuns: number): Promise<void> {
  const pipeline = providerPipeline();
  await fc.assert(
    fc.asyncProperty(adversarialConversations(fc), async (items) => {
      const checks = await checkProviderValid(pipeline, items);
      expect(checks.flatMap((check) => check.problems.map((problem) => `${check.provider}: ${problem}`))).toEqual([]);
    }),
    { numRuns, seed },
  );
}
