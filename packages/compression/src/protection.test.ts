// Pinned items (metadata.pinned) survive every strategy and chain: never dropped, cleared or
// summarized, sent exactly as stored; when they cannot fit, the build says so and names them.
import { BudgetExceededError, createPipeline, type ItemInput, type Items } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { agentConversations } from "./__fixtures__/conversation-arbitrary.js";
import { CompressionPlugin, type StrategyInput } from "./index.js";

const NOW = Date.UTC(2025, 0, 1);
const summarizer = ({ items }: { items: ReadonlyArray<{ id: string }> }) => `Earlier: ${items.length} messages.`;

const CHAINS: ReadonlyArray<ReadonlyArray<StrategyInput>> = [
  ["sliding-window"],
  [{ type: "clear-tool-results", keepRecent: 0, clearAtLeast: 0, minSaving: 1 }],
  ["priority"],
  [{ type: "summarize", summarizer, now: () => NOW, maxSummaryTokens: 50 }],
  [{ type: "clear-tool-results", keepRecent: 0, clearAtLeast: 0, minSaving: 1 }, { type: "summarize", summarizer, now: () => NOW, maxSummaryTokens: 50 }, "sliding-window"],
];
const nameOf = (chain: ReadonlyArray<StrategyInput>) => chain.map((strategy) => (typeof strategy === "string" ? strategy : "type" in strategy ? strategy.type : strategy.name)).join(" → ");

function pin(item: ItemInput): ItemInput {
  return { ...item, metadata: { ...item.metadata, pinned: true } } as ItemInput;
}

/** An agent's turns with long tool results, the first user message and one old result pinned. */
function agentTurns(turns: number): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = 0; turn < turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: `Question ${turn}: ${"why does the build fail ".repeat(4)}` });
    items.push({ id: `a${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_file", arguments: `{"n":${turn}}` }] });
    items.push({ id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_file", output: `line ${turn} `.repeat(80) });
    items.push({ id: `r${turn}`, type: "assistant", text: `Turn ${turn} answered.` });
  }
  items[0] = pin(items[0]!);
  items[10] = pin(items[10]!); // t2
  return items;
}

describe("pinned items and the strategies", () => {
  test.each(CHAINS.map((chain) => ({ chain, name: nameOf(chain) })))("$name leaves pinned items as they are", async ({ chain }) => {
    const items = agentTurns(12);
    const result = await createPipeline({ plugins: [new CompressionPlugin({ strategies: [...chain], tokenBudget: 1200, minRecentMessages: 2 })] }).build(items, { tokenizer: wordTokenizer });
    // sliding-window stops at the first protected turn, here the pinned first one: it leaves the rest
    // to the budget fit, which drops the turns around pinned ones.
    if (nameOf(chain) !== "sliding-window") expect(result.report.compression!.ran).toBe(true);
    for (const id of ["u0", "t2", "a2"]) {
      const entry = result.report.entries.find((candidate) => candidate.id === id)!;
      expect(entry.decision).toBe("kept");
      expect(entry.history.filter((event) => event.decision !== "kept")).toEqual([]);
    }
    expect(JSON.stringify(result.request)).toContain(JSON.stringify((items[10] as { output: string }).output));
  });

  test("property: every pinned item is sent as stored, or the build fails naming it", async () => {
    await fc.assert(
      fc.asyncProperty(
        agentConversations({ minTurns: 2, maxTurns: 8 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...CHAINS),
        fc.integer({ min: 200, max: 3000 }),
        async (conversation, picks, chain, maxTokens) => {
          const items = [...conversation.items];
          const pinned = new Set<string>();
          for (const pick of picks) {
            const position = pick % items.length;
            if (items[position]!.metadata?.includeInContext === false) continue;
            items[position] = pin(items[position]!);
            pinned.add(items[position]!.id!);
          }
          const pipeline = createPipeline({ plugins: [new CompressionPlugin({ strategies: [...chain], minRecentMessages: 2 })] });
          try {
            const result = await pipeline.build(items, { tokenizer: wordTokenizer, maxTokens });
            for (const entry of result.report.entries) {
              if (!pinned.has(entry.id)) continue;
              // Left out only for what it is (a blank message, a failed call), never for room.
              if (entry.decision !== "kept") expect(entry.stage).not.toBe("compress");
              expect(entry.history.filter((event) => event.stage === "compress" && event.decision !== "kept")).toEqual([]);
            }
          } catch (error) {
            if (!(error instanceof BudgetExceededError)) throw error;
          }
        },
      ),
      { numRuns: 80, interruptAfterTimeLimit: 20_000 },
    );
  }, 120_000);
});

describe("a strategy that touches what it must leave alone", () => {
  // A strategy of the user's: it drops every item whose id it is given, protected or not.
  const dropping = (ids: ReadonlyArray<string>) => ({
    name: "careless",
    compress: (items: Items) => items.filter((item) => !ids.includes(item.id)),
  });
  const build = (ids: ReadonlyArray<string>) =>
    createPipeline({ plugins: [new CompressionPlugin({ strategies: [dropping(ids)], tokenBudget: 200, triggerThreshold: 0.5, targetUsage: 0.3, minRecentMessages: 2 })] })
      .build(agentTurns(6), { tokenizer: wordTokenizer })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );

  test("dropping one of the newest messages fails the build, naming the strategy and the item", async () => {
    const error = await build(["u0-not-there", "a1", "r5"]);
    expect(error).toMatchObject({ name: "PluginError", plugin: "careless", hook: "compress" });
    expect(error?.message).toContain('changed or removed item "r5", which belongs to the current loop or the newest messages');
  });

  test("dropping a pinned item fails it too, and the first protected item in list order is the one named", async () => {
    const pinned = await build(["a1", "t2"]);
    expect(pinned?.message).toContain('changed or removed item "t2"');
    const both = await build(["t2", "r5", "u0"]);
    expect(both?.message).toContain('changed or removed item "u0"');
  });

  test("dropping only unprotected items builds", async () => {
    expect(await build(["a1", "t1"])).toBeUndefined();
  });
});
