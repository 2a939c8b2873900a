// Summaries made by an AI SDK model: the summarize strategy of @ctxpipe/compression calls the
// application's summarizer, here generateText with a second (mock) model. One context keeps one
// pipeline, so a summary made for one step is reused by the next ones instead of being asked again.
import { generateText, stepCountIs, tool } from "ai";
import { expect, test } from "vitest";
import { z } from "zod";
import { weatherTurns } from "./__fixtures__/broken-history.js";
import { sentPromptProblems } from "./__fixtures__/check-sent-prompt.js";
import { scriptedModel } from "./__fixtures__/scripted-model.js";
import { createAiSdkContext } from "./index.js";

test("an AI SDK model writes the summary once; every step sends it in place of the old turns and fits", async () => {
  const summaries = scriptedModel([{ text: "Earlier: the user asked for the week's weather in ten French cities; all were mild." }], "gpt-4o-mini");
  const agent = scriptedModel([{ toolCall: { id: "call_a", name: "train", input: { to: "Paris" } } }, { toolCall: { id: "call_b", name: "train", input: { to: "Lyon" } } }, { text: "Done." }]);
  const tools = { train: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}.` }) };
  const context = createAiSdkContext({
    maxTokens: 4_000,
    reserveOutputTokens: 500,
    tools,
    compression: {
      strategies: ["summarize", "sliding-window"],
      summarizer: async ({ prompt, signal }) => (await generateText({ model: summaries.model, prompt, abortSignal: signal })).text,
    },
  });

  await generateText({ model: agent.model, messages: weatherTurns(40), tools, stopWhen: stepCountIs(5), prepareStep: context.prepareStep });

  expect(agent.prompts).toHaveLength(3);
  expect(summaries.prompts).toHaveLength(1);
  for (const prompt of agent.prompts) {
    expect(sentPromptProblems(prompt)).toEqual([]);
    expect(JSON.stringify(prompt)).toContain("all were mild");
  }
  const report = context.lastBuild!.report;
  expect(report.entries.filter((entry) => entry.decision === "summarized").length).toBeGreaterThan(20);
  expect(context.lastBuild!.tokenCount).toBeLessThanOrEqual(3_500);
});

test("the summary records of one run, passed back to a new context, are applied without asking the summarizer again", async () => {
  const tools = { train: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}.` }) };
  const history = weatherTurns(40);
  const summaries = scriptedModel([{ text: "Earlier: the user asked for the week's weather in ten French cities; all were mild." }], "gpt-4o-mini");
  const compression = {
    strategies: ["summarize", "sliding-window"] as const,
    summarizer: async ({ prompt, signal }: { prompt: string; signal: AbortSignal }) => (await generateText({ model: summaries.model, prompt, abortSignal: signal })).text,
  };
  const first = createAiSdkContext({ maxTokens: 4_000, reserveOutputTokens: 500, tools, compression: { ...compression, strategies: [...compression.strategies] } });
  await generateText({ model: scriptedModel([{ text: "Done." }]).model, messages: history, tools, prepareStep: first.prepareStep });
  const records = first.lastBuild!.report.compression!.records;
  expect(records).toHaveLength(1);
  expect(summaries.prompts).toHaveLength(1);

  // A new request, a new context (a server keeps none between requests), the same history.
  const second = createAiSdkContext({ maxTokens: 4_000, reserveOutputTokens: 500, tools, compression: { ...compression, strategies: [...compression.strategies] }, buildOptions: { summaries: records } });
  const agent = scriptedModel([{ text: "Done." }]);
  await generateText({ model: agent.model, messages: history, tools, prepareStep: second.prepareStep });
  expect(summaries.prompts).toHaveLength(1);
  expect(second.lastBuild!.report.compression!.appliedSummaries).toEqual([records[0]!.id]);
  expect(JSON.stringify(agent.prompts[0])).toContain("all were mild");
});
