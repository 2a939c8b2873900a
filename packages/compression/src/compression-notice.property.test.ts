// The notice's figures are the chain's final decisions: an item cleared and then left out by the
// window counts as left out (with everything it saved), whichever route the chain took to it. The
// notice works them out from the chain's held decisions; the report's per-item history is the
// second route checked here, build after build of a reused pipeline.
import { createPipeline, type ItemInput } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { agentConversations } from "./__fixtures__/conversation-arbitrary.js";
import type { CompressionNoticeSummary } from "./compression-notice.js";
import { CompressionPlugin, DEFAULT_STRATEGIES } from "./index.js";

const KINDS: ReadonlySet<string> = new Set(["cleared", "truncated", "summarized", "dropped"]);
const CHAINS = {
  default: [...DEFAULT_STRATEGIES],
  "clear all, then window": [{ type: "clear-tool-results" as const, keepRecent: 0, clearAtLeast: 0, minSaving: 1 }, "sliding-window" as const],
  "summarize, then window": [{ type: "summarize" as const, summarizer: () => "Earlier work, in short.", now: () => 0 }, "sliding-window" as const],
};
type Chain = keyof typeof CHAINS;
// The report names each decision by the part of the chain that made it.
const CHAIN_PARTS: ReadonlySet<string> = new Set(["apply-summaries", "truncate-tool-results", "clear-tool-results", "summarize", "sliding-window"]);

describe("the compression notice counts the chain's final decisions (property)", () => {
  test("items and tokens per kind equal the report's: each item's last decision by the chain, and the chain's savings for it", async () => {
    await fc.assert(
      fc.asyncProperty(
        agentConversations({ minTurns: 3, maxTurns: 10 }),
        fc.constantFrom<Chain>("default", "clear all, then window", "summarize, then window"),
        fc.integer({ min: 100, max: 2_000 }),
        fc.integer({ min: 1, max: 4 }),
        async (conversation, chain, maxTokens, builds) => {
          const seen: CompressionNoticeSummary[] = [];
          const strategies = CHAINS[chain];
          const pipeline = createPipeline({
          plugins: [
            new CompressionPlugin({
              strategies,
              notice: {
                text: (summary) => {
                  seen.push(summary);
                  return "";
                },
              },
            }),
          ],
        });
          const all: ItemInput[] = conversation.items;
          for (let build = 1; build <= builds; build++) {
            const history = all.slice(0, Math.ceil((all.length * build) / builds));
            seen.length = 0;
            const result = await pipeline.build(history, { tokenizer: wordTokenizer, maxTokens }).catch(() => undefined);
            if (result === undefined || seen.length === 0) continue;
            const savings = result.report.compression?.savings ?? [];
            const expected: Record<string, { items: number; tokens: number }> = { cleared: { items: 0, tokens: 0 }, truncated: { items: 0, tokens: 0 }, summarized: { items: 0, tokens: 0 }, dropped: { items: 0, tokens: 0 } };
            for (const entry of result.report.allEntries) {
              const last = entry.history.filter((event) => CHAIN_PARTS.has(event.plugin)).at(-1);
              if (last === undefined || !KINDS.has(last.decision)) continue;
              const kind = last.decision;
              expected[kind]!.items++;
              for (const saving of savings) if (saving.id === entry.id) expected[kind]!.tokens += saving.tokensSaved;
            }
            const { offloaded: _, ...counts } = seen.at(-1)!;
            expect(counts).toEqual(expected);
          }
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);
});
