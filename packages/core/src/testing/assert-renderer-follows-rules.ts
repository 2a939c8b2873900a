// The property behind checkRendererRules: random and adversarial conversations (every trap providers
// answer with HTTP 400) and core's fixtures, each rendered and checked against the renderer's rule
// table. fast-check is passed in, as to adversarialConversations, so this module costs nothing at run
// time to those who do not test with it; a failure throws fast-check's report, with the shrunk input.
import type fc from "fast-check";
import type { ItemInput } from "../model/item.js";
import type { RendererName } from "../spec/renderer-output-map.js";
import { adversarialConversations } from "./adversarial-conversations.js";
import { checkRendererRules, type RendererRulesCheck } from "./check-renderer-rules.js";
import { conversationFixture, everyItemTypeFixture, toolLoopFixture } from "./fixtures.js";
import { pipelineFor } from "./renderer-under-test.js";

type FastCheck = typeof fc;

export interface RendererPropertyOptions<R extends RendererName> extends RendererRulesCheck<R> {
  /** The conversations to try. Default: adversarialConversations(fc), with core's fixtures among them. */
  readonly conversations?: fc.Arbitrary<ReadonlyArray<ItemInput>>;
  /** Default 100. */
  readonly numRuns?: number;
  /** fast-check's seed, to replay a failure it reported. */
  readonly seed?: number;
}

export async function assertRendererFollowsRules<R extends RendererName>(fc: FastCheck, options: RendererPropertyOptions<R>): Promise<void> {
  const conversations =
    options.conversations ??
    fc.oneof(
      { weight: 9, arbitrary: adversarialConversations(fc) },
      { weight: 1, arbitrary: fc.constantFrom<ReadonlyArray<ItemInput>>(everyItemTypeFixture(), toolLoopFixture(), conversationFixture()) },
    );
  const pipeline = pipelineFor(options);
  await fc.assert(
    fc.asyncProperty(conversations, async (items) => {
      const problems = await checkRendererRules(options, items, pipeline);
      if (problems.length > 0) throw new Error(`the "${options.renderer}" request is not valid:\n  ${problems.join("\n  ")}`);
    }),
    // The problems go in the message, next to the shrunk input, whatever the test runner prints of causes.
    { numRuns: options.numRuns ?? 100, includeErrorInReport: true, ...(options.seed === undefined ? {} : { seed: options.seed }) },
  );
}
