// The provider-valid property, run by the two test files that split the 10,000 conversations of a
// CI run between both cores.
import { adversarialConversations } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { expect } from "vitest";
import { checkProviderValid, providerPipeline } from "./check-provider-valid.js";

export async function assertProviderValid(seed: number, numRuns: number): Promise<void> {
  const pipeline = providerPipeline();
  await fc.assert(
    // Half the builds compose a system prompt (stored system messages are then left out), half do not
    // (they are the prompt).
    fc.asyncProperty(adversarialConversations(fc), fc.boolean(), async (items, composed) => {
      const checks = await checkProviderValid(pipeline, items, composed ? "You are a careful engineer." : undefined);
      expect(checks.flatMap((check) => check.problems.map((problem) => `${check.provider}: ${problem}`))).toEqual([]);
    }),
    { numRuns, seed },
  );
}
