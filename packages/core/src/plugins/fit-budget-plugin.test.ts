import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import type { ItemInput } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { countOpenAIChatTokens } from "../renderers/openai-chat/count-openai-chat-tokens.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { adversarialConversations, wordTokenizer } from "../testing/index.js";
import { FitBudgetPlugin } from "./fit-budget-plugin.js";

/** A new tokenizer object, so no per-tokenizer cache can answer for it. */
const freshWordTokenizer = (): Tokenizer => ({ ...wordTokenizer, count: (text) => wordTokenizer.count(text) });

/** `turns` turns of a tool-using agent: user, assistant call, result, assistant answer. */
function agentTurns(turns: number): ItemInput[] {
  const items: ItemInput[] = [];
  for (let turn = 0; turn < turns; turn++) {
    items.push({ id: `u${turn}`, type: "user", text: `Question number ${turn} about the build failing on CI again.` });
    items.push({ id: `a${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_file", arguments: `{"path":"src/file-${turn}.ts"}` }] });
    items.push({ id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_file", output: `export const value${turn} = ${turn}; // a line of code` });
    items.push({ id: `r${turn}`, type: "assistant", text: `The file defines value${turn}; nothing else is wrong with it.` });
  }
  return items;
}

const sizeOf = async (items: ItemInput[], system?: string) =>
  (await createPipeline().build(items, { tokenizer: wordTokenizer, ...(system === undefined ? {} : { system }) })).tokenCount;

describe("FitBudgetPlugin", () => {
  test("drops the oldest whole turns to fit, keeps the newest, and reports each drop", async () => {
    const items = agentTurns(20);
    const full = await sizeOf(items, "Be brief.");
    const result = await createPipeline().build(items, { tokenizer: wordTokenizer, system: "Be brief.", maxTokens: Math.floor(full / 2) });
    expect(result.tokenCount).toBeLessThanOrEqual(Math.floor(full / 2));
    expect(result.includedIds.at(-1)).toBe("r19");
    // Whole turns go: a turn is either all in or all out.
    for (let turn = 0; turn < 20; turn++) {
      const ids = [`u${turn}`, `a${turn}`, `t${turn}`, `r${turn}`];
      expect(new Set(ids.map((id) => result.includedIds.includes(id))).size).toBe(1);
    }
    expect(result.excludedIds[0]).toBe("u0");
    const dropped = result.report.entries.find((entry) => entry.id === "t0");
    expect(dropped).toMatchObject({ decision: "dropped", stage: "compress", plugin: "FitBudgetPlugin" });
    expect(dropped?.reason).toMatch(/over budget/);
    expect(result.tokenCount).toBe(countOpenAIChatTokens(result.request, freshWordTokenizer()));
  });

  test("nothing is dropped while the history fits", async () => {
    const items = agentTurns(3);
    const result = await createPipeline().build(items, { tokenizer: wordTokenizer, maxTokens: (await sizeOf(items)) + 1 });
    expect(result.excludedIds).toEqual([]);
  });

  test("the cut point moves in steps, so the request keeps its first messages for several turns", async () => {
    const all = agentTurns(60);
    const pipeline = createPipeline();
    const maxTokens = Math.floor((await sizeOf(all.slice(0, 120))) / 2);
    const firstKept: string[] = [];
    for (let length = 120; length <= all.length; length++) {
      const result = await pipeline.build(all.slice(0, length), { tokenizer: wordTokenizer, maxTokens });
      expect(result.tokenCount).toBeLessThanOrEqual(maxTokens);
      firstKept.push(result.includedIds[0]!);
    }
    // 121 builds, each one message longer than the last; the first kept turn changes only now and then.
    const moves = firstKept.filter((id, index) => index > 0 && id !== firstKept[index - 1]).length;
    expect(moves).toBeGreaterThan(0);
    expect(moves).toBeLessThan(firstKept.length / 4);
  });

  test("stepRatio 0 keeps as much history as fits", async () => {
    const items = agentTurns(20);
    const maxTokens = Math.floor((await sizeOf(items)) / 2);
    const exact = await createPipeline({ plugins: [new FitBudgetPlugin({ stepRatio: 0 })] }).build(items, { tokenizer: wordTokenizer, maxTokens });
    const stepped = await createPipeline().build(items, { tokenizer: wordTokenizer, maxTokens });
    expect(exact.includedIds.length).toBeGreaterThanOrEqual(stepped.includedIds.length);
    // One more turn would not have fitted.
    const turnsKept = exact.includedIds.length / 4;
    expect(await sizeOf(items.slice(-4 * (turnsKept + 1)))).toBeGreaterThan(maxTokens);
  });

  test("a newest turn that cannot fit on its own is a BudgetExceededError that says so", async () => {
    const items = agentTurns(5);
    const error = await createPipeline()
      .build(items, { tokenizer: wordTokenizer, maxTokens: 20 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error).toMatchObject({ code: "BUDGET_EXCEEDED", available: 20, exact: true });
    expect((error as BudgetExceededError).message).toContain('The newest turn (from item "u4")');
  });

  test("an estimate that falls short (a system part added after compress) costs a second attempt, not an oversized request", async () => {
    const items = agentTurns(20);
    const late = {
      name: "late-system",
      apply(pipeline: Parameters<FitBudgetPlugin["apply"]>[0]) {
        pipeline.hooks.insertSystem.tap({ name: "late-system", stage: -500 }, (_items, context) => {
          context.system.add({ text: "word ".repeat(200) });
        });
      },
    };
    const maxTokens = Math.floor((await sizeOf(items)) / 2);
    const result = await createPipeline({ plugins: [late] }).build(items, { tokenizer: wordTokenizer, maxTokens });
    expect(result.tokenCount).toBeLessThanOrEqual(maxTokens);
    expect(result.report.budget?.attempts).toBe(2);
  });

  test("options are checked", () => {
    expect(() => new FitBudgetPlugin({ stepRatio: 2 })).toThrow(/stepRatio/);
  });

  test("a request that fits with nothing dropped is sent, even when dropping would make it longer", async () => {
    // A result stored ahead of its call: dropped with the older items, it is repaired into a longer note.
    // (A case the property below found.)
    const conversation: ItemInput[] = [
      { id: "s0-r0", type: "tool-result", callId: "call_1", toolName: "read_file", output: "", isError: false },
      {
        id: "failed-call-0",
        type: "error",
        text: "LLM_ERROR\n- Code: LLM_HTTP_ERROR\n- Status: 529\n- Provider code: overloaded_error\n- Message: anthropic: HTTP 529: Overloaded\n\nThe previous model call failed before it produced an answer. Continue from where the conversation stands.",
        metadata: { mode: "chat", extra: { errorCode: "LLM_HTTP_ERROR", errorFingerprint: "LLM_HTTP_ERROR|529|overloaded_error|anthropic: HTTP 529: Overloaded" } },
      },
      { id: "continue-1", type: "user", text: "continue" },
      { id: "s0", type: "assistant", text: "", toolCalls: [1, 2, 3].map(() => ({ id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' })) },
    ];
    const full = await createPipeline().build(conversation, { tokenizer: wordTokenizer, system: "Be brief." });
    const fitted = await createPipeline().build(conversation, { tokenizer: wordTokenizer, system: "Be brief.", maxTokens: full.tokenCount });
    expect(fitted.tokenCount).toBe(full.tokenCount);
    expect(fitted.request).toEqual(full.request);
    // The report's figures are the build's budget, the last attempt counted, and a warning says why.
    expect(fitted.report.budget).toEqual({ maxTokens: full.tokenCount, reserveOutputTokens: 0, available: full.tokenCount, used: full.tokenCount, attempts: 7 });
    expect(fitted.report.warnings).toEqual([expect.stringMatching(/every compressed request came out over the budget .* fits \(\d+ tokens\) and is sent$/)]);
    expect(full.report.warnings).toEqual([]);
  });

  test("with an exact tokenizer the request never exceeds the budget, for any conversation and budget (property)", async () => {
    await fc.assert(
      fc.asyncProperty(adversarialConversations(fc), fc.double({ min: 0.05, max: 1.2, noNaN: true }), async (conversation, ratio) => {
        // Conversations refused even without a budget (nothing to send) are another test's business.
        const full = await createPipeline()
          .build(conversation, { tokenizer: wordTokenizer, system: "Be brief." })
          .catch(() => undefined);
        fc.pre(full !== undefined);
        if (full === undefined) return;
        const maxTokens = Math.max(1, Math.floor(full.tokenCount * ratio));
        try {
          const result = await createPipeline().build(conversation, { tokenizer: wordTokenizer, system: "Be brief.", maxTokens });
          expect(result.tokenCount).toBeLessThanOrEqual(maxTokens);
          expect(result.tokenCount).toBe(countOpenAIChatTokens(result.request, freshWordTokenizer()));
          // The newest thing the user (or a parent agent) said is always sent.
          const opensTurn = new Set(["user", "user-intervention", "parent-message"]);
          // Newest in the conversation, not in the input: an edit stored later takes the earlier record's place.
          const turnOpeners = new Set(conversation.filter((item) => opensTurn.has(item.type)).map((item) => item.id));
          const newestUser = full.includedIds.findLast((id) => turnOpeners.has(id));
          if (newestUser !== undefined) expect(result.includedIds).toContain(newestUser);
        } catch (error) {
          expect(error).toBeInstanceOf(BudgetExceededError);
          expect(full.tokenCount).toBeGreaterThan(maxTokens);
        }
      }),
      { numRuns: 300 },
    );
  });
});
