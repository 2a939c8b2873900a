import { createTokenizer } from "@ctxpipe/tokenizers";
import type { ModelMessage } from "ai";
import { expect, test } from "vitest";
import { aiSdkLoopBenchmark } from "./ai-sdk-loop-benchmark.js";
import { modelMessagesProblems } from "./model-messages-problems.js";

const tokenizer = createTokenizer("gpt-4o");

test("ctxpipe in prepareStep keeps every prompt within the budget with every call paired", async () => {
  const figures = await aiSdkLoopBenchmark({ messages: 80, turns: 4, tokenizer });
  const [ctxpipe, pruned, prunedToBudget] = figures.rows;
  expect(figures.rows.map((row) => row.perTurn.runs)).toEqual([4, 4, 4]);
  expect(ctxpipe!.overBudget).toBe(0);
  expect(ctxpipe!.unpaired).toBe(0);
  // Half the history: ctxpipe sends some of it, not all, and not nothing.
  expect(ctxpipe!.messagesSent).toBeGreaterThan(1);
  expect(ctxpipe!.messagesSent).toBeLessThan(80);
  // The peer rows ran every turn and were measured by the same count.
  for (const row of [pruned!, prunedToBudget!]) {
    expect(row.tokens).toBeGreaterThan(0);
    expect(row.unpaired).toBe(0);
  }
  expect(prunedToBudget!.overBudget).toBe(0);
});

test("an unpaired call or result is named; a paired list has no problems", () => {
  const call: ModelMessage = { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "read", input: {} }] };
  const result: ModelMessage = { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "ok" } }] };
  const user: ModelMessage = { role: "user", content: "next" };
  expect(modelMessagesProblems([user, call, result, user])).toEqual([]);
  expect(modelMessagesProblems([user, call, user])).toEqual(["messages[2]: the call c1 has no result before this user message"]);
  expect(modelMessagesProblems([user, result])).toEqual(["messages[1]: a result for c1 without its call right before it"]);
  expect(modelMessagesProblems([user, call])).toEqual(["the call c1 has no result at the end of the prompt"]);
});
