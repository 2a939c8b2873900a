// The provider-valid promise with cache breakpoints in play: a system prompt long enough for every
// model to cache, so each Anthropic request of the adversarial conversations carries breakpoints,
// and the request must still break no rule (ANT-013, ANT-021, ANT-027 and ANT-028 among them).
import { adversarialConversations } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { checkProviderValid, providerPipeline } from "../provider-valid/check-provider-valid.js";

/** About 2,200 words-and-marks: above claude-sonnet-4-6's minimum of 2,048 tokens. */
const LONG_SYSTEM = "Follow the house style in every answer. ".repeat(250).trim();

describe("cache breakpoints on adversarial conversations", () => {
  test("anthropic requests with breakpoints break no rule, lose nothing silently and keep the newest user message", async () => {
    const pipeline = providerPipeline();
    let marked = 0;
    await fc.assert(
      fc.asyncProperty(adversarialConversations(fc), async (items) => {
        const checks = await checkProviderValid(pipeline, items, LONG_SYSTEM);
        expect(checks.flatMap((check) => check.problems.map((problem) => `${check.provider}: ${problem}`))).toEqual([]);
        const built = await pipeline.build(items, { renderer: "anthropic", model: "claude-sonnet-4-6", system: LONG_SYSTEM }).catch(() => undefined);
        if (built === undefined) return;
        // The system prompt alone is long enough: its breakpoint is always there, and never more than four in all.
        const markers = JSON.stringify(built.request).split('"cache_control"').length - 1;
        expect(markers).toBeGreaterThanOrEqual(1);
        expect(markers).toBeLessThanOrEqual(4);
        marked++;
      }),
      { numRuns: 300, seed: 21 },
    );
    expect(marked).toBeGreaterThan(0);
  }, 300_000);
});
