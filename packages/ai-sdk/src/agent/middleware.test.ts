// ctxpipe as a language model middleware (transformParams), with the real `ai` package: every call's
// provider-level prompt is built by the pipeline, for generateText and streamText alike.
import type { BuildResult } from "@ctxpipe/core";
import { generateText, MissingToolResultsError, type ModelMessage, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import type { AiSdkRequest } from "../messages/index.js";
import { brokenHistory } from "./__fixtures__/broken-history.js";
import { sentPromptProblems } from "./__fixtures__/check-sent-prompt.js";
import { type ScriptedReply, scriptedModel } from "./__fixtures__/scripted-model.js";
import { type AiSdkBuildInfo, createAiSdkContext, ctxpipeMiddleware } from "./index.js";
import type { ProviderPrompt } from "./provider-prompt.js";
import { toProviderPrompt } from "./to-provider-prompt.js";

const MAX_TOKENS = 3_000;
const RESERVE = 500;

const tools = {
  train: tool({ description: "Trains to a city", inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}, then every hour.` }),
};

const script: ReadonlyArray<ScriptedReply> = [
  { toolCall: { id: "call_step0", name: "train", input: { to: "Paris" } } },
  { text: "The 8:04 TGV goes to Paris." },
];

function promptOf(build: BuildResult<AiSdkRequest>): ProviderPrompt {
  const { system, messages } = build.request;
  return [...(system === undefined ? [] : [{ role: "system" as const, content: system }]), ...toProviderPrompt(messages)];
}

async function runStream(options: Parameters<typeof streamText>[0]): Promise<string> {
  let failure: unknown;
  const result = streamText({
    ...options,
    onError: ({ error }) => {
      failure = error;
    },
  });
  await result.consumeStream();
  if (failure !== undefined) throw failure;
  return result.text;
}

describe.each(["generate", "stream"] as const)("the middleware, %s", (callType) => {
  test("an over-budget history with a double write and an orphan result: every prompt is valid and fits", async () => {
    const { messages } = brokenHistory(30, { unanswered: false });
    const { model, prompts } = scriptedModel(script);
    const builds: Array<{ result: BuildResult<AiSdkRequest>; info: AiSdkBuildInfo }> = [];
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, onBuild: (result, info) => void builds.push({ result, info }) });
    const wrapped = wrapLanguageModel({ model, middleware: context.middleware });
    const options = { model: wrapped, messages, instructions: "You plan trips.", tools, stopWhen: stepCountIs(4) };

    const text = callType === "generate" ? (await generateText(options)).text : await runStream(options);

    expect(text).toBe("The 8:04 TGV goes to Paris.");
    expect(prompts).toHaveLength(2);
    expect(builds.map(({ info }) => info)).toEqual([0, 1].map(() => ({ via: "middleware", modelId: "gpt-4o", countedAs: "gpt-4o", callType, maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE })));
    prompts.forEach((prompt, call) => {
      expect(sentPromptProblems(prompt), `call ${call}`).toEqual([]);
      const build = builds[call]!.result;
      // The caller's system message is sent as it came (it is the one the build counted).
      expect(prompt).toEqual(promptOf(build));
      expect(build.tokenCount).toBeLessThanOrEqual(MAX_TOKENS - RESERVE);
    });
    expect(JSON.stringify(prompts[1])).toContain("call_step0");
  });
});

describe("the middleware", () => {
  test("cannot see a call an aborted stream left unanswered: the AI SDK refuses it first; prepareStep repairs it, and both can be used together", async () => {
    const { messages } = brokenHistory(30);
    const alone = scriptedModel(script);
    const failure = await generateText({ model: wrapLanguageModel({ model: alone.model, middleware: ctxpipeMiddleware({ maxTokens: MAX_TOKENS }) }), messages }).catch((error: unknown) => error);
    expect(MissingToolResultsError.isInstance(failure)).toBe(true);
    expect(alone.prompts).toHaveLength(0);

    const both = scriptedModel(script);
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, tools });
    const result = await generateText({
      model: wrapLanguageModel({ model: both.model, middleware: context.middleware }),
      messages,
      tools,
      stopWhen: stepCountIs(4),
      prepareStep: context.prepareStep,
    });
    expect(result.text).toBe("The 8:04 TGV goes to Paris.");
    for (const prompt of both.prompts) expect(sentPromptProblems(prompt)).toEqual([]);
  });

  test("takes the answer's reserve from the call's maxOutputTokens, and counts the call's tools", async () => {
    const { model } = scriptedModel([{ text: "Hi." }]);
    const builds: Array<{ result: BuildResult<AiSdkRequest>; info: AiSdkBuildInfo }> = [];
    const context = createAiSdkContext({ onBuild: (result, info) => void builds.push({ result, info }) });
    const wrapped = wrapLanguageModel({ model, middleware: context.middleware });
    const messages: ModelMessage[] = [{ role: "user", content: "Trains to Paris?" }];
    await generateText({ model: wrapped, messages, maxOutputTokens: 700 });
    await generateText({ model: wrapped, messages, maxOutputTokens: 700, tools });
    expect(builds.map(({ info }) => info.reserveOutputTokens)).toEqual([700, 700]);
    expect(builds[0]!.info.maxTokens).toBe(128_000);
    // The same messages, with the tool's definition: it is counted.
    expect(builds[1]!.result.tokenCount).toBeGreaterThan(builds[0]!.result.tokenCount);
  });

  test("keeps the caller's system messages as they came, provider options included", async () => {
    const { model, prompts } = scriptedModel([{ text: "Hi." }]);
    const instructions = [
      { role: "system" as const, content: "You plan trips.", providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } },
      { role: "system" as const, content: "Answer in French." },
    ];
    await generateText({ model: wrapLanguageModel({ model, middleware: ctxpipeMiddleware() }), prompt: "Hello", instructions });
    expect(prompts[0]!.slice(0, 2)).toEqual(instructions);
  });

  test("two equal messages at two places are both sent, call after call (an answer repeated is not a copy)", async () => {
    const { model, prompts } = scriptedModel([{ toolCall: { id: "call_a", name: "train", input: { to: "Paris" } } }, { text: "Done." }]);
    const wrapped = wrapLanguageModel({ model, middleware: ctxpipeMiddleware() });
    const messages: ModelMessage[] = [
      { role: "user", content: "Shall we go?" },
      { role: "assistant", content: "Paris or Lyon?" },
      { role: "user", content: "yes" },
      { role: "assistant", content: "Which one?" },
      { role: "user", content: "yes" },
    ];
    await generateText({ model: wrapped, messages, tools, stopWhen: stepCountIs(3) });
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) expect(prompt.filter((message) => JSON.stringify(message.content) === '[{"type":"text","text":"yes"}]')).toHaveLength(2);
  });
});
