import { BudgetExceededError, PluginOptionsError } from "@ctxpipe/core";
import { createTokenizer, UnknownModelError } from "@ctxpipe/tokenizers";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from "@langchain/core/messages";
import { countTokensApproximately, fakeModel } from "langchain";
import { describe, expect, test } from "vitest";
import { strictRequestProblems } from "../__fixtures__/strict-request-check.js";
import { countLangChainTokens } from "../renderer/count-langchain-tokens.js";
import { ctxpipeTrimMessages, ctxpipeTrimMessagesWithReport } from "./ctxpipe-trim-messages.js";

const gpt4o = createTokenizer("gpt-4o");

/** An agent's history: an old tool loop (two parallel calls) and a newer question. */
function agentHistory(): BaseMessage[] {
  return [
    new SystemMessage({ id: "s", content: "You are a travel assistant." }),
    new HumanMessage({ id: "h1", content: "Compare the weather in Paris and Rome for next week, with the details for each day." }),
    new AIMessage({
      id: "a1",
      content: "",
      tool_calls: [
        { id: "call_paris", name: "get_weather", args: { city: "Paris", days: 7 } },
        { id: "call_rome", name: "get_weather", args: { city: "Rome", days: 7 } },
      ],
    }),
    new ToolMessage({ id: "t1", tool_call_id: "call_paris", content: `Paris: ${"mild, light rain in the afternoon; ".repeat(12)}` }),
    new ToolMessage({ id: "t2", tool_call_id: "call_rome", content: `Rome: ${"sunny and warm, a breeze by the evening; ".repeat(12)}` }),
    new AIMessage({ id: "a2", content: "Rome will be sunnier all week; Paris gets afternoon rain." }),
    new HumanMessage({ id: "h2", content: "And which one has the better museums open on Mondays?" }),
  ];
}

describe("ctxpipeTrimMessages", () => {
  test("where trimMessages keeps a tool result without its call, ctxpipe drops the whole turn and says so", async () => {
    const history = agentHistory();
    // Room for the newest turn and one of the two results, as counted by the same approximate counter.
    const maxTokens = countTokensApproximately([history[0]!, history[4]!, history[5]!, history[6]!]) + 5;
    const theirs = await trimMessages(history, { maxTokens, tokenCounter: countTokensApproximately, strategy: "last", includeSystem: true });
    expect(theirs.map((message) => message.id)).toEqual(["s", "t2", "a2", "h2"]);
    expect(strictRequestProblems(theirs)).toEqual(['messages[1]: the tool message answers "call_rome", no call right before it']);

    const ours = await ctxpipeTrimMessagesWithReport(history, { maxTokens, tokenCounter: countTokensApproximately });
    expect(strictRequestProblems(ours.messages)).toEqual([]);
    // A turn (the question, the calls, their results, the answer) goes whole; the system message is the one passed in.
    expect(ours.messages).toEqual([history[0], history[6]]);
    expect(ours.messages[0]).toBe(history[0]);
    expect(ours.report.entries.filter((entry) => entry.decision === "dropped").map((entry) => entry.id)).toEqual(["h1", "a1", "t1", "t2", "a2"]);
  });

  test("where trimMessages' approximate count misses Chinese text, ctxpipe counts exactly and fits", async () => {
    const chinese = "这是一个关于上下文窗口的很长的回答，其中包含很多细节和解释。".repeat(20);
    const history: BaseMessage[] = [
      new SystemMessage({ id: "s", content: "用中文回答。" }),
      new HumanMessage({ id: "h1", content: "请详细解释。" }),
      new AIMessage({ id: "a1", content: chinese }),
      new HumanMessage({ id: "h2", content: "再详细一点。" }),
      new AIMessage({ id: "a2", content: chinese }),
      new HumanMessage({ id: "h3", content: "总结一下。" }),
    ];
    const maxTokens = 800;
    const theirs = await trimMessages(history, { maxTokens, tokenCounter: countTokensApproximately, strategy: "last", includeSystem: true });
    // chars/4 thinks this fits; gpt-4o's own tokenizer says it does not.
    expect(countTokensApproximately(theirs)).toBeLessThanOrEqual(maxTokens);
    expect(countLangChainTokens(theirs, gpt4o)).toBeGreaterThan(maxTokens);

    const result = await ctxpipeTrimMessagesWithReport(history, { maxTokens, model: "gpt-4o" });
    expect(result.tokenCountExact).toBe(true);
    expect(countLangChainTokens(result.messages, gpt4o)).toBe(result.tokenCount);
    expect(result.tokenCount).toBeLessThanOrEqual(maxTokens);
    expect(result.messages.at(-1)!.id).toBe("h3");
    expect(strictRequestProblems(result.messages)).toEqual([]);
  });

  test("repairs broken history, keeps the system message, reports every message, and leaves the input as it was", async () => {
    const history: BaseMessage[] = [
      new SystemMessage({ id: "s", content: "Be brief." }),
      new ToolMessage({ id: "orphan", tool_call_id: "call_gone", content: "a result whose call was trimmed away" }),
      new HumanMessage({ id: "h1", content: "Book a table." }),
      new AIMessage({ id: "a1", content: "", tool_calls: [{ id: "call_book", name: "book", args: { time: "20:00" } }] }),
      new HumanMessage({ id: "h2", content: "Did it work?" }),
    ];
    const before = JSON.stringify(history);
    const reports: unknown[] = [];
    const result = await ctxpipeTrimMessagesWithReport(history, { maxTokens: 10_000, model: "gpt-4o", onReport: (report) => reports.push(report) });
    expect(JSON.stringify(history)).toBe(before);
    expect(reports).toEqual([result.report]);
    expect(result.messages[0]).toBe(history[0]);
    expect(strictRequestProblems(result.messages)).toEqual([]);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision])).toEqual([
      // The stored system message is the prompt: merged into it (and handed back as it was passed).
      ["s", "merged"],
      ["orphan", "dropped"],
      ["h1", "kept"],
      ["a1", "kept"],
      ["h2", "kept"],
    ]);
    // The unanswered call got an answer saying it was interrupted, synthesized (not from the input).
    expect(result.messages.map((message) => message.type)).toEqual(["system", "human", "ai", "tool", "human"]);
  });

  test("a chat model as tokenCounter counts exactly as its model", async () => {
    const result = await ctxpipeTrimMessagesWithReport(agentHistory(), { maxTokens: 10_000, tokenCounter: { model: "gpt-4o-mini" } });
    expect(result.tokenCountExact).toBe(true);
    expect(result.tokenCount).toBe(countLangChainTokens(result.messages, createTokenizer("gpt-4o-mini")));
  });

  test("the newest turn alone over the budget is a BudgetExceededError", async () => {
    await expect(ctxpipeTrimMessages(agentHistory(), { maxTokens: 20, model: "gpt-4o" })).rejects.toBeInstanceOf(BudgetExceededError);
  });

  test.for<{ name: string; options: Record<string, unknown>; error: new (...args: never[]) => Error; message: RegExp }>([
    { name: 'strategy "first"', options: { maxTokens: 100, strategy: "first" }, error: PluginOptionsError, message: /strategy "first" is not supported[\s\S]*→ at strategy/ },
    { name: "allowPartial", options: { maxTokens: 100, allowPartial: true }, error: PluginOptionsError, message: /→ at allowPartial/ },
    { name: "neither a model nor maxTokens", options: {}, error: PluginOptionsError, message: /no budget[\s\S]*→ at model/ },
    { name: "an unknown model without maxTokens", options: { model: "my-local-llm" }, error: UnknownModelError, message: /unknown model "my-local-llm" \(model\)/ },
    { name: "an async tokenCounter", options: { maxTokens: 100, tokenCounter: async () => 1 }, error: PluginOptionsError, message: /tokenCounter answered a Promise/ },
  ])("bad options: $name", async ({ options, error, message }) => {
    const failure = ctxpipeTrimMessages(agentHistory(), options as never);
    await expect(failure).rejects.toBeInstanceOf(error);
    await expect(failure).rejects.toThrow(message);
  });

  test("given the options alone, it is a Runnable for chains, as trimMessages(options) is", async () => {
    const model = fakeModel().respond(new AIMessage("Rome has more museums open on Mondays."));
    const chain = ctxpipeTrimMessages({ maxTokens: 10_000, model: "gpt-4o" }).pipe(model);
    const history = agentHistory();
    const reply = await chain.invoke(history);
    expect(reply.text).toBe("Rome has more museums open on Mondays.");
    expect(strictRequestProblems(model.calls[0]!.messages)).toEqual([]);
    expect(model.calls[0]!.messages).toEqual(await ctxpipeTrimMessages(history, { maxTokens: 10_000, model: "gpt-4o" }));
  });
});
