import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { importStoredMessages } from "../importers/import-stored-messages.js";
import type { ItemInput } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { wordTokenizer } from "../testing/index.js";

/** `turns` turns of a tool-using agent; the ids in `pinned` carry metadata.pinned. */
function agentTurns(turns: number, pinned: ReadonlySet<string> = new Set()): ItemInput[] {
  const items: ItemInput[] = [];
  const meta = (id: string) => (pinned.has(id) ? { metadata: { pinned: true } } : {});
  for (let turn = 0; turn < turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: `Question number ${turn} about the build failing on CI again.`, ...meta(`u${turn}`) });
    items.push({ id: `a${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_file", arguments: `{"path":"src/file-${turn}.ts"}` }], ...meta(`a${turn}`) });
    items.push({ id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_file", output: `export const value${turn} = ${turn}; // a line of code`, ...meta(`t${turn}`) });
    items.push({ id: `r${turn}`, type: "assistant", text: `The file defines value${turn}; nothing else is wrong with it.`, ...meta(`r${turn}`) });
  }
  return items;
}

const fullSize = async (items: ItemInput[]) => (await createPipeline().build(items, { tokenizer: wordTokenizer })).tokenCount;

describe("FitBudgetPlugin and pinned items", () => {
  test("a pinned item's turn stays while older and newer turns go; its entry says it was pinned", async () => {
    const items = agentTurns(20, new Set(["u0", "t7"]));
    const maxTokens = Math.floor((await fullSize(items)) / 2);
    const result = await createPipeline().build(items, { tokenizer: wordTokenizer, maxTokens });
    expect(result.tokenCount).toBeLessThanOrEqual(maxTokens);
    // The pinned items' whole turns are sent, so each call keeps its result.
    for (const id of ["u0", "a0", "t0", "r0", "u7", "a7", "t7", "r7", "r19"]) expect(result.includedIds).toContain(id);
    for (const id of ["u1", "u6", "u8"]) expect(result.excludedIds).toContain(id);
    const pinned = result.report.entries.find((entry) => entry.id === "t7")!;
    expect(pinned.decision).toBe("kept");
    expect(pinned.history).toEqual([
      { decision: "kept", stage: "compress", plugin: "FitBudgetPlugin", reason: `pinned (metadata.pinned): kept while the turns around it were dropped to fit ${maxTokens} tokens` },
    ]);
    // Not pinned itself, only in a pinned item's turn: kept without a word.
    expect(result.report.entries.find((entry) => entry.id === "a7")!.history).toEqual([]);
  });

  test("pinned items that cannot fit with the newest turn: the error names them and their tokens", async () => {
    const big = "word ".repeat(300).trim();
    const items: ItemInput[] = [
      { id: "spec", type: "user", text: big, metadata: { pinned: true } },
      { id: "ok", type: "assistant", text: "Understood." },
      ...agentTurns(3),
    ];
    const error = await createPipeline()
      .build(items, { tokenizer: wordTokenizer, maxTokens: 200 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", available: 200 });
    expect((error as BudgetExceededError).detail).toMatch(/^The newest turn \(from item "u2"\), the system prompt and the pinned items "spec" \(300 tokens\) need about \d+ tokens on their own; nothing older that is not pinned is left to drop\.$/);
  });

  test("without a budget fit, a request over budget that holds only pinned turns and the newest says so", async () => {
    const items: ItemInput[] = [
      { id: "spec", type: "user", text: "word ".repeat(100).trim(), metadata: { pinned: true } },
      { id: "ok", type: "assistant", text: "Understood." },
      { id: "q", type: "user", text: "Go on." },
    ];
    const error = await createPipeline({ defaults: { fitBudget: false } })
      .build(items, { tokenizer: wordTokenizer, maxTokens: 50 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as BudgetExceededError).detail).toBe(
      'Nothing older than the newest turn (from item "q") but the turns of pinned items was left in the request; that turn, the system prompt and the pinned items "spec" (100 tokens) do not fit on their own.',
    );
  });

  test("a stored message's pinned field imports into metadata.pinned", () => {
    const [item] = importStoredMessages([{ id: "m1", role: "user", content: "The spec.", pinned: true }]);
    expect(item).toEqual({ id: "m1", type: "user", role: "user", text: "The spec.", metadata: { pinned: true } });
  });

  test("property: every pinned item is sent, or the build fails naming each of them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 12 }), fc.array(fc.nat({ max: 47 }), { maxLength: 4 }), fc.double({ min: 0.15, max: 1, noNaN: true }), async (turns, picks, share) => {
        const ids = agentTurns(turns).map((item) => item.id);
        const pinned = new Set(picks.filter((pick) => pick < ids.length).map((pick) => ids[pick]!));
        const items = agentTurns(turns, pinned);
        const maxTokens = Math.max(1, Math.floor((await fullSize(items)) * share));
        try {
          const result = await createPipeline().build(items, { tokenizer: wordTokenizer, maxTokens });
          expect(result.tokenCount).toBeLessThanOrEqual(maxTokens);
          for (const id of pinned) expect(result.includedIds).toContain(id);
        } catch (error) {
          expect(error).toBeInstanceOf(BudgetExceededError);
          const message = (error as BudgetExceededError).message;
          const newest = `u${turns - 1}`;
          const older = [...pinned].filter((id) => Number(id.slice(1)) < turns - 1);
          expect(message).toContain(`newest turn (from item "${newest}")`);
          for (const id of older) expect(message).toContain(`"${id}" (`);
        }
      }),
      { numRuns: 60 },
    );
  });
});
