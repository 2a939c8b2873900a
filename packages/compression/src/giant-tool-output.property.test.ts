// The promises of issue 20 over random agent conversations with random huge outputs (tool results and
// pasted logs, anywhere, the newest turn included) and random budgets, with the default chain: within
// budget, provider-valid for every renderer, the newest user message kept, nothing left out or cut
// without a report entry saying why, and a reused pipeline builds what a fresh one does.
import { type BuildResult, checkRules, createPipeline, type ItemInput, type Pipeline } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin } from "@ctxpipe/renderers";
import { PROVIDERS } from "@ctxpipe/renderers/testing";
import { XmlRendererPlugin } from "@ctxpipe/xml-renderer";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { logText, randomFrom } from "./__fixtures__/giant-output.js";
import { CompressionPlugin, DEFAULT_STRATEGIES } from "./index.js";

const RENDERERS = ["openai", "anthropic", "gemini", "xml"] as const;
type Renderer = (typeof RENDERERS)[number];
const SIZES = [40, 2_000, 60_000, 400_000] as const;

const turnShape = fc.record({
  results: fc.array(fc.constantFrom(...SIZES), { minLength: 0, maxLength: 3 }),
  pasted: fc.constantFrom(0, 0, 0, 80_000),
  answer: fc.boolean(),
});

const conversations = fc.record({
  turns: fc.array(turnShape, { minLength: 1, maxLength: 5 }),
  budget: fc.integer({ min: 3_000, max: 40_000 }),
  seed: fc.nat(),
});

interface TurnShape {
  readonly results: ReadonlyArray<number>;
  readonly pasted: number;
  readonly answer: boolean;
}

function conversationOf(turns: ReadonlyArray<TurnShape>, seed: number): ItemInput[] {
  const next = randomFrom(seed);
  const items: ItemInput[] = [];
  turns.forEach((turn, index) => {
    const pasted = turn.pasted > 0 ? `\n${logText(turn.pasted, next)}` : "";
    items.push({ id: `u${index}`, type: "user", text: `Question ${index}: what failed?${pasted}` });
    if (turn.results.length > 0) {
      items.push({ id: `c${index}`, type: "assistant", text: "", toolCalls: turn.results.map((_, call) => ({ id: `call_${index}_${call}`, name: "read_log", arguments: `{"n":${call}}` })) });
      turn.results.forEach((size, call) => {
        items.push({ id: `t${index}_${call}`, type: "tool-result", callId: `call_${index}_${call}`, toolName: "read_log", output: logText(size, next) });
      });
    }
    if (turn.answer) items.push({ id: `a${index}`, type: "assistant", text: `Answer ${index}: worker ${index} timed out.` });
  });
  return items;
}

function pipeline(): Pipeline {
  return createPipeline({ plugins: [new CompressionPlugin({ strategies: [...DEFAULT_STRATEGIES] }), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin(), new XmlRendererPlugin()] });
}

// The model each provider's rules are checked for (the renderer adapts to it, as Gemini 3's thought signatures).
const modelOf = (renderer: Renderer) => PROVIDERS.find((provider) => provider.renderer === renderer)?.model;

const build = (on: Pipeline, items: ReadonlyArray<ItemInput>, renderer: Renderer, budget: number) =>
  on.build(items, { renderer: renderer as "openai", model: modelOf(renderer) ?? "xml", tokenizer: wordTokenizer, maxTokens: budget, reserveOutputTokens: 0, system: "You are a careful engineer." }) as Promise<
    BuildResult<unknown>
  >;

describe("giant outputs anywhere, the default chain, every renderer", () => {
  test("within budget, provider-valid, the newest question kept, every change reported, fresh = reused", { timeout: 300_000 }, async () => {
    const reused = pipeline();
    await fc.assert(
      fc.asyncProperty(conversations, async ({ turns, budget, seed }) => {
        const items = conversationOf(turns, seed);
        const newest = items.findLast((item) => item.type === "user")!;
        for (const renderer of RENDERERS) {
          const result = await build(reused, items, renderer, budget);
          expect(result.tokenCount).toBeLessThanOrEqual(budget);
          const provider = PROVIDERS.find((candidate) => candidate.renderer === renderer);
          if (provider !== undefined) expect(checkRules(provider.rules, result.request, { model: provider.model })).toEqual([]);
          // The newest question is sent (whole, or its head when a pasted log made it huge).
          expect(result.includedIds).toContain(newest.id);
          const sent = JSON.stringify(result.request);
          expect(sent).toContain(JSON.stringify(`Question ${turns.length - 1}: what failed?`).slice(1, -1));
          items.forEach((item, index) => {
            const entry = result.report.entries[index]!;
            expect(entry.id).toBe(item.id);
            if (entry.decision !== "kept") expect(entry.reason).not.toBe("");
            if (entry.decision === "kept" && item.type === "assistant" && item.text !== undefined && item.text !== "") expect(sent).toContain(item.text);
          });
          const fresh = await build(pipeline(), items, renderer, budget);
          expect(JSON.stringify(fresh.request)).toBe(JSON.stringify(result.request));
        }
      }),
      { numRuns: 25, interruptAfterTimeLimit: 200_000 },
    );
  });
});
