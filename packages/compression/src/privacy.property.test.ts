// Property for issue 20's "nothing excluded reaches a model": a secret placed in messages a build
// leaves out (includeInContext: false, a stored system message the composed prompt replaces) or
// rewrites (a redaction plugin, on whichever stage it taps) never appears in what the summarizer is
// given, in the summary records, in the request or in the offloaded texts the model may read back, for
// every strategy and chain, for every provider.
import { BudgetExceededError, createPipeline, type Item, type ItemInput, type PipelinePlugin, STAGE } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin } from "@ctxpipe/renderers";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { agentConversations } from "./__fixtures__/conversation-arbitrary.js";
import { CompressionPlugin, type StrategyInput, type SummarizerRequest } from "./index.js";

const NOW = Date.UTC(2025, 0, 1);
const TIMEOUT = 120_000;
const LIMIT = { interruptAfterTimeLimit: 20_000 } as const;

type Kind = "sliding-window" | "clear-tool-results" | "summarize" | "priority" | "truncate-tool-results";
const CHAINS: ReadonlyArray<ReadonlyArray<Kind>> = [
  ["summarize"],
  ["clear-tool-results", "summarize", "sliding-window"],
  ["summarize", "sliding-window"],
  ["priority", "summarize"],
  ["sliding-window"],
  ["clear-tool-results"],
  ["priority", "sliding-window"],
  // The default chain, and truncation ahead of a summary: cut and cleared originals are offloaded.
  ["truncate-tool-results", "clear-tool-results", "sliding-window"],
  ["truncate-tool-results", "summarize"],
];

type Hook = "compress" | "filter" | "repairOrphans" | "insertSystem";
const HOOKS: ReadonlyArray<{ hook: Hook; stage: number }> = [
  { hook: "compress", stage: STAGE.FIRST },
  { hook: "filter", stage: STAGE.FIRST },
  { hook: "filter", stage: STAGE.LAST },
  { hook: "repairOrphans", stage: STAGE.DEFAULT },
  { hook: "insertSystem", stage: STAGE.FIRST },
];

const secretArbitrary = fc
  .array(fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZ23456789"), { minLength: 12, maxLength: 12 })
  .map((chars) => `SECRET${chars.join("")}`);

const placementArbitrary = fc.array(fc.record({ at: fc.nat(), how: fc.constantFrom("excluded" as const, "redacted" as const, "stored-system" as const) }), { minLength: 1, maxLength: 4 });

/** The item with the secret in its text (or output). */
function withSecret(item: ItemInput, secret: string): ItemInput {
  if ("output" in item && typeof item.output === "string") return { ...item, output: `${item.output} ${secret}` };
  if ("text" in item && typeof item.text === "string") return { ...item, text: `${item.text} ${secret}` };
  return item;
}

/** Puts the secret into the conversation; returns the items. */
function place(items: ReadonlyArray<ItemInput>, secret: string, placements: ReadonlyArray<{ at: number; how: "excluded" | "redacted" | "stored-system" }>): ItemInput[] {
  const result = [...items];
  for (const [index, { at, how }] of placements.entries()) {
    const position = at % result.length;
    if (how === "stored-system") {
      result.splice(position, 0, { id: `stored-system-${index}`, type: "system", text: `Stored note: ${secret}` });
      continue;
    }
    const placed = withSecret(result[position]!, secret);
    result[position] = how === "excluded" ? { ...placed, metadata: { ...placed.metadata, includeInContext: false } } : placed;
  }
  return result;
}

/** Replaces the secret wherever it is, on one hook. */
function redaction(secret: string, { hook, stage }: { hook: Hook; stage: number }): PipelinePlugin {
  return {
    name: "RedactSecret",
    apply(pipeline) {
      pipeline.hooks[hook].tap({ name: "RedactSecret", stage }, (items, context) =>
        items.map((item): Item => {
          if (item.type === "tool-result" && item.output.includes(secret)) {
            context.report.repair(item, "redacted");
            return { ...item, output: item.output.replaceAll(secret, "[redacted]") };
          }
          if ("text" in item && item.type !== "system" && item.text.includes(secret)) {
            context.report.repair(item, "redacted");
            return { ...item, text: item.text.replaceAll(secret, "[redacted]") } as Item;
          }
          return item;
        }),
      );
    },
  };
}

/** A summarizer that repeats every secret-like word it was given, so a leak reaches the records and the request. */
function recording() {
  const calls: Array<Omit<SummarizerRequest, "signal">> = [];
  const summarizer = ({ signal: _signal, ...request }: SummarizerRequest) => {
    calls.push(request);
    const leaked = request.prompt.match(/SECRET[A-Z0-9]+/g) ?? [];
    return `Earlier: ${request.items.length} messages. ${leaked.join(" ")}`.trim();
  };
  return { calls, summarizer };
}

function strategiesOf(chain: ReadonlyArray<Kind>, summarizer: (request: SummarizerRequest) => string): StrategyInput[] {
  return chain.map((kind) => (kind === "summarize" ? { type: "summarize", summarizer, now: () => NOW, maxSummaryTokens: 50 } : kind === "clear-tool-results" ? { type: kind, clearAtLeast: 0, minSaving: 1 } : kind));
}

describe("nothing left out or redacted reaches the summarizer, the records or the request (property)", () => {
  test.each(CHAINS.map((chain) => ({ chain, name: chain.join(" → ") })))(
    "$name",
    async ({ chain }) => {
      await fc.assert(
        fc.asyncProperty(
          agentConversations({ minTurns: 3, maxTurns: 8 }),
          secretArbitrary,
          placementArbitrary,
          fc.constantFrom(...HOOKS),
          fc.constantFrom("openai" as const, "anthropic" as const, "gemini" as const),
          fc.integer({ min: 150, max: 3000 }),
          async (conversation, secret, placements, where, renderer, tokenBudget) => {
            const items = place(conversation.items, secret, placements);
            const { calls, summarizer } = recording();
            const pipeline = createPipeline({
              plugins: [
                new CompressionPlugin({ strategies: strategiesOf(chain, summarizer), tokenBudget, minRecentMessages: 2, triggerThreshold: 0.6, targetUsage: 0.3 }),
                redaction(secret, where),
                new AnthropicMessagesRendererPlugin(),
                new GeminiRendererPlugin(),
              ],
            });
            let result: Awaited<ReturnType<typeof pipeline.build>> | undefined;
            try {
              result = await pipeline.build(items, { renderer: renderer as "openai", tokenizer: wordTokenizer, system: "You are a careful engineer." });
            } catch (error) {
              if (!(error instanceof BudgetExceededError)) throw error;
            }
            expect(JSON.stringify(calls)).not.toContain(secret);
            if (result === undefined) return;
            expect(JSON.stringify(result.report.compression?.records ?? [])).not.toContain(secret);
            expect(JSON.stringify(result.request)).not.toContain(secret);
            // Nor what the model may read back.
            expect(JSON.stringify(result.report.offloaded)).not.toContain(secret);
            // Applied in a later build, the records bring nothing back either.
            const again = await pipeline.build(items, { renderer: renderer as "openai", tokenizer: wordTokenizer, system: "You are a careful engineer.", summaries: result.report.compression?.records ?? [] });
            expect(JSON.stringify(again.request)).not.toContain(secret);
          },
        ),
        { numRuns: 40, ...LIMIT },
      );
    },
    TIMEOUT,
  );
});
