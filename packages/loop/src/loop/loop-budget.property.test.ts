// Budgets hold with exact counts: for any stored conversation (any scripts, long and short messages,
// tool calls and their results) and any small budget, every request a loop sends to a model named
// "gpt-4o" counts, recounted exactly from the request itself with o200k_base, what the build said it
// counted, and no more than the input budget (maxTokens − reserveOutputTokens). A call whose newest
// turn alone cannot fit is refused with BudgetExceededError before anything is sent.
import { countOpenAIChatTokens, type OpenAIChatRequest } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import { getEncoding } from "@ctxpipe/tokenizers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { type ScriptedReply, scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";

const o200k = getEncoding("o200k_base");

const words = ["budget", "tokens", "预算", "压缩对话", "ñandú", "δοκιμή", "🙂", "🧪🧪", "résumé", "naïve", "\n", "  ", "{\"a\":1}", "https://example.com/x?y=1"];
const textArbitrary = (maxWords: number) =>
  fc.oneof(
    fc.array(fc.constantFrom(...words), { maxLength: maxWords }).map((parts) => parts.join(" ")),
    fc.string({ unit: "grapheme", maxLength: maxWords }),
  );

const tools: LoopTool[] = [
  { name: "echo", run: (args) => args },
  { name: "dump", run: (args) => `${String(args.text ?? "")}\n`.repeat(Number(args.times ?? 1)) },
];

const replyArbitrary: fc.Arbitrary<ScriptedReply> = fc.oneof(
  fc.record({ text: textArbitrary(60) }),
  fc.record({
    text: fc.constantFrom("", "Let me look."),
    toolCalls: fc.array(
      fc.oneof(
        fc.record({ name: fc.constant("echo"), arguments: fc.record({ note: textArbitrary(20) }) }),
        fc.record({ name: fc.constant("dump"), arguments: fc.record({ text: textArbitrary(30), times: fc.integer({ min: 1, max: 20 }) }) }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

/** A stored history as earlier calls would have left it: user and assistant text, in order. */
const historyArbitrary = fc.array(fc.tuple(fc.constantFrom("user" as const, "assistant" as const), textArbitrary(200)), { maxLength: 30 });

const caseArbitrary = fc.record({
  history: historyArbitrary,
  replies: fc.array(replyArbitrary, { minLength: 1, maxLength: 6 }),
  inputs: fc.array(textArbitrary(40), { minLength: 1, maxLength: 3 }),
  maxTokens: fc.integer({ min: 1_200, max: 4_000 }),
  /** Undefined: the model's default, a quarter of a budget this small. */
  reserveOutputTokens: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
});

describe("budgets with exact counts, for any conversation", () => {
  it("every request a gpt-4o loop sends counts exactly what its build counted, within maxTokens − reserveOutputTokens", async () => {
    let sent = 0;
    let refused = 0;
    let trimmed = 0;
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ history, replies, inputs, maxTokens, reserveOutputTokens }) => {
        const { store } = tempStore();
        const stored: StoredMessage[] = history.map(([role, text], index) => ({ id: `h${index}`, role, content: text === "" ? "…" : text }));
        if (stored.length > 0) await store.append("c1", stored);
        const model = scriptedModel(replies, { model: "gpt-4o", repeatLast: true });
        const loop = new ChatLoop({
          model,
          store,
          tools,
          maxTurns: 4,
          buildOptions: { maxTokens, ...(reserveOutputTokens === undefined ? {} : { reserveOutputTokens }) },
        });
        const builds: Array<{ tokenCount: number; exact: boolean; available: number | undefined }> = [];
        for (const userInput of inputs) {
          try {
            await loop.send({
              conversationId: "c1",
              userInput: userInput.trim() === "" ? "go on" : userInput,
              onEvent: (event) => {
                if (event.type !== "built") return;
                builds.push({ tokenCount: event.result.tokenCount, exact: event.result.tokenCountExact, available: event.result.report.budget?.available });
                if (event.result.excludedIds.length > 0) trimmed++;
              },
            });
          } catch (error) {
            // The newest turn alone does not fit: refused before the model is called.
            expect(error).toMatchObject({ name: "BudgetExceededError", code: "BUDGET_EXCEEDED", exact: true });
            refused++;
          }
        }
        const available = maxTokens - (reserveOutputTokens ?? Math.floor(maxTokens / 4));
        expect(model.calls.length).toBe(builds.length);
        model.calls.forEach((call, index) => {
          const recounted = countOpenAIChatTokens(call.request as OpenAIChatRequest, o200k);
          expect({ ...builds[index], recounted }).toEqual({ tokenCount: recounted, exact: true, available, recounted });
          expect(recounted).toBeLessThanOrEqual(available);
        });
        sent += model.calls.length;
      }),
      { numRuns: 40, seed: 2323 },
    );
    // Not vacuous: requests were sent, more than were refused, and many had to be made to fit.
    expect({ sent: sent > 40, refusedFewer: refused < sent, trimmed: trimmed > 10 }).toEqual({ sent: true, refusedFewer: true, trimmed: true });
  });
});
