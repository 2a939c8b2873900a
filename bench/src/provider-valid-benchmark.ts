// How fast the provider-valid promise is checked: generated adversarial conversations, each built for
// OpenAI, Anthropic and Gemini and checked against the provider's rules, as `pnpm test` does.
import { adversarialConversations } from "@ctxpipe/core/testing";
import { checkProviderValid, providerPipeline } from "@ctxpipe/renderers/testing";
import fc from "fast-check";

export interface ProviderValidFigures {
  readonly conversations: number;
  readonly items: number;
  readonly perSecond: number;
  readonly problems: number;
}

export async function providerValidBenchmark(conversations: number, seed = 7): Promise<ProviderValidFigures> {
  const samples = fc.sample(adversarialConversations(fc), { numRuns: conversations, seed });
  const pipeline = providerPipeline();
  let problems = 0;
  const started = process.hrtime.bigint();
  for (const items of samples) {
    for (const check of await checkProviderValid(pipeline, items)) problems += check.problems.length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { conversations, items: samples.reduce((total, items) => total + items.length, 0), perSecond: conversations / seconds, problems };
}
