import { createTokenizer } from "@ctxpipe/tokenizers";
import { expect, test } from "vitest";
import { agentLoopBenchmark } from "./agent-loop-benchmark.js";
import { coldBuildBenchmark } from "./cold-build-benchmark.js";

const tokenizer = createTokenizer("gpt-4o");

test("the agent loop runs every turn for both, each within half the history's tokens", async () => {
  const figures = await agentLoopBenchmark({ messages: 60, ctxpipeTurns: 4, trimMessagesTurns: 3, fromScratchTurns: 2, tokenizer });
  expect(figures.ctxpipeFailure).toBeUndefined();
  expect([figures.ctxpipe?.runs, figures.trimMessages.runs, figures.fromScratch?.runs]).toEqual([4, 3, 2]);
  expect(figures.budgetTokens).toBeGreaterThan(1_000);
  // Half the tokens: both send some of the history, not all of it (the system message counts as one).
  for (const kept of [figures.ctxpipeMessagesKept!, figures.trimMessagesKept]) {
    expect(kept).toBeGreaterThan(1);
    expect(kept).toBeLessThan(60);
  }
});

test("a cold build fits each run's conversation into half its tokens", async () => {
  const figures = await coldBuildBenchmark(40, 2, tokenizer);
  expect(figures.failure).toBeUndefined();
  expect(figures.build?.runs).toBe(2);
  expect(figures.megabytes).toBeGreaterThan(0);
});
