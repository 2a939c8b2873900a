// Properties of the summary apply step on histories whose persisted summaries reach into the current
// turn, as stores write them when they compact everything: the build never fails for it, the newest
// user message and its turn are sent as written, the request is valid for every provider, every input
// item is in the report, and the same input gives the same request, on a fresh or a reused pipeline.
import { checkRules, createPipeline, type ItemInput, type Pipeline } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { PROVIDERS, type ProviderName } from "@ctxpipe/renderers/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { agentConversations, type Conversation } from "../__fixtures__/conversation-arbitrary.js";
import { CompressionPlugin } from "../compression-plugin.js";
import type { SummaryRecordInput } from "./summary-record.js";

const MODELS: Record<ProviderName, string> = { openai: "gpt-4o", "openai-responses": "gpt-5", anthropic: "claude-sonnet-4-6", gemini: "gemini-3-pro" };
const TIMEOUT = 120_000;

const pipeline = (): Pipeline =>
  createPipeline({ plugins: [new CompressionPlugin({ strategies: ["sliding-window"], tokenBudget: 1_000_000 }), new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin()] });

/** Where a summary comes from and what it covers: from `start` (per mille of the history) to the newest user message, past it, or to the end. */
const summarySpec = fc.record({
  form: fc.constantFrom("record" as const, "message-builder" as const, "stored-range" as const, "stored-list" as const),
  start: fc.nat({ max: 1000 }),
  past: fc.nat({ max: 6 }),
  toEnd: fc.boolean(),
});
type SummarySpec = typeof summarySpec extends fc.Arbitrary<infer Spec> ? Spec : never;

function withSummary(conversation: Conversation, spec: SummarySpec): { items: ItemInput[]; summaries: SummaryRecordInput[] } {
  const { items, newestUser } = conversation;
  const to = spec.toEnd ? items.length - 1 : Math.min(items.length - 1, newestUser + spec.past);
  const from = Math.floor((spec.start / 1001) * (to + 1));
  const covered = items.slice(from, to + 1).map((item) => item.id!);
  const text = "Everything so far, summarized.";
  switch (spec.form) {
    case "record":
      return { items, summaries: [{ id: "sum", summary: text, coveredIds: covered, startId: covered[0]!, sourceTokenCount: 1, createdAt: "2026-01-01T00:00:00.000Z" }] };
    case "message-builder":
      return { items, summaries: [{ summary: text, messageIds: covered, startMessageId: items[to + 1]?.id ?? covered[0]! }] };
    case "stored-range":
      return { items: [...items, { id: "sum", type: "summary", text, fromId: covered[0]!, toId: covered.at(-1)! }], summaries: [] };
    case "stored-list":
      return { items: [...items.slice(0, to + 1), { id: "sum", type: "summary", text, coveredIds: covered }, ...items.slice(to + 1)], summaries: [] };
  }
}

const options = (provider: ProviderName, summaries: SummaryRecordInput[]) => ({
  renderer: provider as "openai",
  model: MODELS[provider],
  tokenizer: wordTokenizer,
  validation: "throw" as const,
  summaries,
});

describe("summaries over the current turn", () => {
  test(
    "build, send the newest user message and its turn as written, stay provider-valid, report every item, deterministically",
    async () => {
      const reused = pipeline();
      await fc.assert(
        fc.asyncProperty(agentConversations({ maxTurns: 6 }), summarySpec, async (conversation, spec) => {
          const { items, summaries } = withSummary(conversation, spec);
          const problems: string[] = [];
          for (const provider of PROVIDERS) {
            const result = await pipeline().build(items, options(provider.renderer, summaries));
            for (const violation of checkRules(provider.rules, result.request, { model: MODELS[provider.renderer] })) problems.push(`${provider.renderer}: ${violation.rule}: ${violation.message}`);
            const newest = conversation.items[conversation.newestUser]!;
            if (!result.includedIds.includes(newest.id!)) problems.push(`${provider.renderer}: newest user message "${newest.id}" not sent`);
            const newestText = newest.type === "user" ? newest.text : "";
            if (!JSON.stringify(result.request).includes(JSON.stringify(newestText).slice(1, -1))) problems.push(`${provider.renderer}: its text is not in the request`);
            for (const item of conversation.items.slice(conversation.newestUser)) {
              const entry = result.report.entries.find((candidate) => candidate.id === item.id);
              if (entry?.history.some((event) => event.decision === "summarized")) problems.push(`${provider.renderer}: current-turn item "${item.id}" summarized`);
            }
            const reported = new Set(result.report.entries.map((entry) => entry.id));
            for (const item of items) if (!reported.has(item.id!)) problems.push(`${provider.renderer}: "${item.id}" is not in the report`);
            const again = await reused.build(items, options(provider.renderer, summaries));
            if (JSON.stringify(again.request) !== JSON.stringify(result.request)) problems.push(`${provider.renderer}: a reused pipeline sent something else`);
          }
          expect(problems).toEqual([]);
        }),
        { numRuns: 80 },
      );
    },
    TIMEOUT,
  );
});
