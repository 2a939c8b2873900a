import { checkRules, openAIChatRules } from "@ctxpipe/core";
import { countLangChainTokens, langChainRules, toOpenAIChatMessage } from "@ctxpipe/langchain";
import { createTokenizer } from "@ctxpipe/tokenizers";
import { describe, expect, test } from "vitest";
import { BUDGET, describeRun, runAgent } from "./run-agent.js";

describe("the LangChain agent with ctxpipe's middleware", () => {
  test("completes, and every model call is valid for LangChain and OpenAI and within the budget", async () => {
    const run = await runAgent();
    expect(run.messages.at(-1)!.text).toBe("The database p99 is 95 ms over the last hour: normal.");
    expect(run.calls).toHaveLength(2);
    const gpt4o = createTokenizer("gpt-4o");
    for (const sent of run.calls) {
      expect(checkRules(langChainRules, { messages: sent })).toEqual([]);
      expect(checkRules(openAIChatRules, { model: "gpt-4o", messages: sent.map((message) => toOpenAIChatMessage(message)) }, { model: "gpt-4o" })).toEqual([]);
      expect(countLangChainTokens(sent, gpt4o)).toBeLessThanOrEqual(BUDGET.maxTokens - BUDGET.reserveOutputTokens);
    }
    // Sent as stored, the history breaks LangChain's and OpenAI's rules.
    expect(checkRules(langChainRules, { messages: run.history }).map((violation) => violation.rule)).toEqual(expect.arrayContaining(["LC-004", "LC-005", "LC-006", "LC-008"]));
  });

  test("prints what was repaired and the tokens of each call", async () => {
    const lines = describeRun(await runAgent()).join("\n");
    expect(lines).toMatch(/Model call 1: \d+ tokens sent \(exact, budget 3000 for gpt-4o\)/);
    expect(lines).toContain("t1-retry: dropped");
    expect(lines).toContain("t-orphan: dropped");
    expect(lines).toContain("t1: truncated");
    expect(lines).toContain("a4: repaired: invalid_tool_calls not sent (their arguments did not parse, and no result answers them): call_bad (db_latency)");
    expect(lines).toMatch(/ctxpipe:interrupted:a3:call_db: synthesized/);
    expect(lines).toContain("the 10 stored ones unchanged");
  });
});
