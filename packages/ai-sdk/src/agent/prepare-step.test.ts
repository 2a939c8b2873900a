// ctxpipe inside prepareStep, with the real `ai` package and its mock language model: a multi-step
// tool loop that starts from a broken, over-budget history completes, and every prompt the model
// receives is valid (checked on the prompt itself and against the OpenAI and Anthropic rule tables)
// and fits the budget by ctxpipe's count. The same history without ctxpipe fails, which proves it is
// ctxpipe that fixes it.
import type { BuildResult } from "@ctxpipe/core";
import { UnknownModelError } from "@ctxpipe/tokenizers";
import { generateText, MissingToolResultsError, type ModelMessage, stepCountIs, streamText, ToolLoopAgent, tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import type { AiSdkRequest } from "../messages/index.js";
import { brokenHistory } from "./__fixtures__/broken-history.js";
import { pairingProblems, sentPromptProblems } from "./__fixtures__/check-sent-prompt.js";
import { type ScriptedReply, scriptedModel } from "./__fixtures__/scripted-model.js";
import { type AiSdkBuildInfo, AiSdkCallError, createAiSdkContext, ctxpipePrepareStep } from "./index.js";
import type { ProviderPrompt } from "./provider-prompt.js";
import { toProviderPrompt } from "./to-provider-prompt.js";

const MAX_TOKENS = 3_000;
const RESERVE = 500;

const tools = {
  train: tool({ description: "Trains to a city", inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}, then every hour.` }),
};

const script: ReadonlyArray<ScriptedReply> = [
  { toolCall: { id: "call_step0", name: "train", input: { to: "Paris" } } },
  { toolCall: { id: "call_step1", name: "train", input: { to: "Lyon" } } },
  { text: "The 8:04 TGV goes to Paris; Lyon has one every hour." },
];

/** The prompt the AI SDK sends for what a prepareStep build returned (instructions first). */
function promptOf(build: BuildResult<AiSdkRequest>): ProviderPrompt {
  const { system, messages } = build.request;
  return [...(system === undefined ? [] : [{ role: "system" as const, content: system }]), ...toProviderPrompt(messages)];
}

type Run = (options: { messages: ModelMessage[]; prepareStep?: ReturnType<typeof createAiSdkContext>["prepareStep"]; model: ReturnType<typeof scriptedModel>["model"] }) => Promise<{ text: string; steps: number }>;

const runs: ReadonlyArray<[string, Run]> = [
  [
    "generateText",
    async ({ messages, prepareStep, model }) => {
      const result = await generateText({ model, messages, instructions: "You plan trips.", tools, stopWhen: stepCountIs(5), ...(prepareStep === undefined ? {} : { prepareStep }) });
      return { text: result.text, steps: result.steps.length };
    },
  ],
  [
    "streamText",
    async ({ messages, prepareStep, model }) => {
      let failure: unknown;
      const result = streamText({
        model,
        messages,
        instructions: "You plan trips.",
        tools,
        stopWhen: stepCountIs(5),
        ...(prepareStep === undefined ? {} : { prepareStep }),
        onError: ({ error }) => {
          failure = error;
        },
      });
      await result.consumeStream();
      if (failure !== undefined) throw failure;
      return { text: await result.text, steps: (await result.steps).length };
    },
  ],
];

describe.each(runs)("prepareStep with %s", (_name, run) => {
  test("a broken, over-budget history: the loop completes, every prompt is valid and fits the budget by ctxpipe's count", async () => {
    const { messages } = brokenHistory(30);
    const { model, prompts } = scriptedModel(script);
    const builds: Array<{ result: BuildResult<AiSdkRequest>; info: AiSdkBuildInfo }> = [];
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, tools, onBuild: (result, info) => void builds.push({ result, info }) });

    const result = await run({ messages, prepareStep: context.prepareStep, model });

    expect(result).toEqual({ text: "The 8:04 TGV goes to Paris; Lyon has one every hour.", steps: 3 });
    expect(prompts).toHaveLength(3);
    expect(builds.map(({ info }) => info)).toEqual(
      [0, 1, 2].map((stepNumber) => ({ via: "prepareStep", modelId: "gpt-4o", countedAs: "gpt-4o", stepNumber, maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE })),
    );
    prompts.forEach((prompt, step) => {
      expect(sentPromptProblems(prompt), `step ${step}`).toEqual([]);
      // What the model received is what ctxpipe built and counted, and that count fits.
      const build = builds[step]!.result;
      expect(prompt).toEqual(promptOf(build));
      expect(build.tokenCountExact).toBe(true);
      expect(build.tokenCount).toBeLessThanOrEqual(MAX_TOKENS - RESERVE);
    });
    // The history as stored is far over the budget by the same count: compression had to act.
    const unbounded = createAiSdkContext({ maxTokens: 1_000_000, reserveOutputTokens: RESERVE, compression: false });
    await unbounded.prepareStep({ messages, model, stepNumber: 0, steps: [], instructions: "You plan trips." });
    expect(unbounded.lastBuild!.tokenCount).toBeGreaterThan(2 * (MAX_TOKENS - RESERVE));
    expect(builds[0]!.result.report.entries.filter((entry) => entry.decision === "cleared" || entry.decision === "dropped").length).toBeGreaterThan(10);
    // The loop's own calls reached the model, each answered in the next step.
    expect(JSON.stringify(prompts[2])).toContain("call_step0");
    expect(JSON.stringify(prompts[2])).toContain("call_step1");
  });

  test("without ctxpipe the same history fails: the AI SDK refuses the call an aborted stream left unanswered", async () => {
    const { messages } = brokenHistory(30);
    const { model, prompts } = scriptedModel(script);
    const failure = await run({ messages, model }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(MissingToolResultsError.isInstance(failure)).toBe(true);
    expect((failure as MissingToolResultsError).toolCallIds).toEqual(["call_aborted"]);
    expect(prompts).toHaveLength(0);
  });

  test("without ctxpipe, the double write and the orphan result reach the model, and both providers would refuse it", async () => {
    const { messages } = brokenHistory(30, { unanswered: false });
    const { model, prompts } = scriptedModel(script);
    await run({ messages, model });
    const problems = sentPromptProblems(prompts[0]!);
    expect(pairingProblems(prompts[0]!)).toEqual(
      expect.arrayContaining([expect.stringContaining('call id "call_dup" is used twice'), expect.stringContaining('result "call_ghost" answers no call')]),
    );
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^OpenAI OAI-00[345]/), expect.stringMatching(/^Anthropic ANT-00[79]/)]));
  });
});

describe("prepareStep's report", () => {
  test("lastBuild.report names each repair and drop, with its reason", async () => {
    const { messages } = brokenHistory(30);
    const { model } = scriptedModel([{ text: "The 8:04 TGV." }]);
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE });
    await generateText({ model, messages, instructions: "You plan trips.", prepareStep: context.prepareStep });

    const report = context.lastBuild!.report;
    const entryOf = (index: number) => report.entries.find((entry) => entry.id === `msg-${index}` || entry.id === `msg-${index}.0`)!;
    const at = (predicate: (message: ModelMessage) => boolean, from = 0) => messages.findIndex((message, index) => index >= from && predicate(message));
    const toolFirst = at((message) => JSON.stringify(message).includes("call_dup") && message.role === "tool");
    const ghost = at((message) => JSON.stringify(message).includes("call_ghost"));
    expect(entryOf(toolFirst + 2)).toMatchObject({ decision: "dropped", reason: expect.stringContaining("second result") });
    expect(entryOf(toolFirst + 1)).toMatchObject({ decision: "dropped", reason: expect.stringContaining("copy") });
    expect(entryOf(ghost)).toMatchObject({ decision: "dropped", reason: expect.stringContaining("call_ghost") });
    // The aborted call is answered by a result ctxpipe synthesized, reported as such.
    expect(report.synthesized).toEqual(expect.arrayContaining([expect.objectContaining({ decision: "synthesized", reason: expect.stringContaining("call_aborted") })]));
    // Every stored message has its entry: nothing is lost silently.
    const ids = new Set(report.entries.map((entry) => entry.id.replace(/\.\d+$/, "")));
    for (let index = 0; index < messages.length; index++) expect(ids.has(`msg-${index}`), `message ${index}`).toBe(true);
  });
});

describe("budget from the model", () => {
  test("a model the registry knows gives its window and output limit, counted exactly", async () => {
    const { model } = scriptedModel([{ text: "Hi." }], "gpt-4o-2024-08-06");
    const infos: AiSdkBuildInfo[] = [];
    const context = createAiSdkContext({ onBuild: (_result, info) => void infos.push(info) });
    await generateText({ model, prompt: "Hello", prepareStep: context.prepareStep });
    expect(infos).toEqual([{ via: "prepareStep", modelId: "gpt-4o-2024-08-06", countedAs: "gpt-4o", stepNumber: 0, maxTokens: 128_000, reserveOutputTokens: 16_384 }]);
    expect(context.lastBuild?.tokenCountExact).toBe(true);
  });

  test("an unknown model without maxTokens is an UnknownModelError naming the model and the options to set", async () => {
    const { model, prompts } = scriptedModel([{ text: "Hi." }], "my-local-llama");
    const context = createAiSdkContext();
    const failure = await generateText({ model, prompt: "Hello", prepareStep: context.prepareStep }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnknownModelError);
    expect(failure).toMatchObject({ code: "MODEL_UNKNOWN", model: "my-local-llama" });
    expect((failure as Error).message).toContain('unknown model "my-local-llama"');
    expect((failure as Error).message).toContain("maxTokens");
    expect((failure as Error).message).toContain("countAs");
    expect(prompts).toHaveLength(0);
  });

  test("an unknown model with maxTokens is counted with the fallback encoding, flagged inexact", async () => {
    const { model } = scriptedModel([{ text: "Hi." }], "my-local-llama");
    const context = createAiSdkContext({ maxTokens: 8_000 });
    await generateText({ model, prompt: "Hello", prepareStep: context.prepareStep });
    expect(context.lastBuild).toMatchObject({ tokenCountExact: false });
  });

  test("countAs counts a gateway alias as the model it stands for", async () => {
    const { model } = scriptedModel([{ text: "Hi." }], "team-proxy/fast");
    const infos: AiSdkBuildInfo[] = [];
    const context = createAiSdkContext({ countAs: "gpt-4o-mini", onBuild: (_result, info) => void infos.push(info) });
    await generateText({ model, prompt: "Hello", prepareStep: context.prepareStep });
    expect(infos[0]).toMatchObject({ modelId: "team-proxy/fast", countedAs: "gpt-4o-mini", maxTokens: 128_000 });
  });

  test("a newest message that alone does not fit is cut to its head and tail, reported; without compression the step stops with a BudgetExceededError", async () => {
    const { model, prompts } = scriptedModel([{ text: "Hi." }]);
    const context = createAiSdkContext({ maxTokens: 1_000, reserveOutputTokens: 200 });
    await generateText({ model, prompt: "word ".repeat(5_000), prepareStep: context.prepareStep });
    expect(context.lastBuild!.tokenCount).toBeLessThanOrEqual(800);
    expect(context.lastBuild!.report.entries[0]).toMatchObject({ id: "msg-0", decision: "truncated" });

    const strict = createAiSdkContext({ maxTokens: 1_000, reserveOutputTokens: 200, compression: false });
    const failure = await generateText({ model, prompt: "word ".repeat(5_000), prepareStep: strict.prepareStep }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "BUDGET_EXCEEDED", available: 800 });
    expect(prompts).toHaveLength(1);
  });

  test("the tools option counts the tool definitions prepareStep is not shown", async () => {
    const { model } = scriptedModel([{ text: "Hi." }, { text: "Hi." }]);
    const counts: number[] = [];
    for (const options of [{}, { tools }]) {
      const context = createAiSdkContext({ ...options, onBuild: (result) => void counts.push(result.tokenCount) });
      await generateText({ model, prompt: "Trains to Paris?", tools, prepareStep: context.prepareStep });
    }
    expect(counts).toHaveLength(2);
    expect(counts[1]!).toBeGreaterThan(counts[0]! + 10);
  });

  test("a call that is not the AI SDK's, or a bad message, is a typed error naming what is wrong", async () => {
    const context = createAiSdkContext();
    const model = scriptedModel([{ text: "Hi." }]).model;
    const failures = await Promise.all(
      [
        () => context.prepareStep(undefined as never),
        () => context.prepareStep({ messages: undefined as never, model, stepNumber: 0, steps: [] }),
        () => context.prepareStep({ messages: [{ role: "user", content: "Hi" }], model: undefined as never, stepNumber: 0, steps: [] }),
        () => context.prepareStep({ messages: [{ role: "user", content: "Hi" }, { role: "robot", content: "Hi" } as never], model, stepNumber: 0, steps: [] }),
        () => context.middleware.transformParams!({ type: "generate", params: {} as never, model }),
      ].map((call) => call().then(
        () => undefined,
        (error: unknown) => error,
      )),
    );
    expect(failures.map((error) => [(error as { code?: string }).code, (error as Error).message])).toEqual([
      ["INPUT_INVALID", expect.stringContaining("prepareStep was given a step undefined, expected the AI SDK's step")],
      ["INPUT_INVALID", expect.stringContaining("prepareStep was given messages undefined, expected the step's messages")],
      ["INPUT_INVALID", expect.stringContaining("prepareStep was given a model undefined, expected a language model with a modelId")],
      ["INPUT_INVALID", 'Invalid AI SDK model message[1] (id "msg-1"), field role: expected the role "system", "user", "assistant" or "tool", got "robot"'],
      ["INPUT_INVALID", expect.stringContaining("middleware was given a prompt undefined, expected the call's prompt")],
    ]);
    expect(failures[1]).toBeInstanceOf(AiSdkCallError);
    expect(failures[1]).toMatchObject({ name: "AiSdkCallError", where: "prepareStep", field: "messages" });
  });

  test("bad options fail when the context is made, naming each field", () => {
    expect(() => createAiSdkContext({ maxTokens: -1, fallback: "p50k" as never, onBuild: "log" as never, maxTokenz: 5 } as never)).toThrowError(
      expect.objectContaining({
        code: "OPTIONS_INVALID",
        message: expect.stringMatching(/maxTokenz[\s\S]*maxTokens[\s\S]*fallback[\s\S]*onBuild/),
      }),
    );
  });
});

describe("the system prompt", () => {
  test("the caller's instructions are sent as given (provider options kept) and counted", async () => {
    const { model, prompts } = scriptedModel([{ text: "Hi." }]);
    const context = createAiSdkContext();
    const instructions = { role: "system" as const, content: "You plan trips.", providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } };
    await generateText({ model, prompt: "Hello", instructions, prepareStep: context.prepareStep });
    expect(prompts[0]![0]).toEqual(instructions);
    // Counted in the budget, as the part the build's system prompt was made of.
    expect(context.lastBuild?.report.systemParts).toEqual([expect.objectContaining({ id: "instructions-0", text: "You plan trips.", tokens: 4 })]);
  });

  test("the system option replaces the caller's instructions, which are reported dropped", async () => {
    const { model, prompts } = scriptedModel([{ toolCall: { id: "call_a", name: "train", input: { to: "Paris" } } }, { text: "Done." }]);
    const context = createAiSdkContext({ system: "You are a travel agent." });
    await generateText({ model, prompt: "Trains to Paris?", instructions: "Old rules.", tools, stopWhen: stepCountIs(3), prepareStep: context.prepareStep });
    for (const prompt of prompts) expect(prompt.filter((message) => message.role === "system")).toEqual([{ role: "system", content: "You are a travel agent." }]);
    expect(context.lastBuild?.report.entries[0]).toMatchObject({ id: "instructions-0", decision: "dropped" });
  });
});

describe("the system prompt, left out", () => {
  test("includeSystemPrompt: false sends no system message at all, the caller's instructions reported dropped", async () => {
    const { model, prompts } = scriptedModel([{ toolCall: { id: "call_a", name: "train", input: { to: "Paris" } } }, { text: "Done." }]);
    const context = createAiSdkContext({ buildOptions: { includeSystemPrompt: false } });
    await generateText({ model, prompt: "Trains to Paris?", instructions: "You plan trips.", tools, stopWhen: stepCountIs(3), prepareStep: context.prepareStep });
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) expect(prompt.filter((message) => message.role === "system")).toEqual([]);
    expect(context.lastBuild?.report.entries[0]).toMatchObject({ id: "instructions-0", decision: "dropped" });
  });
});

describe("steps after the first", () => {
  test("build from the caller's history, not from what the previous step sent", async () => {
    const { messages } = brokenHistory(30);
    const { model } = scriptedModel(script);
    const entries: number[] = [];
    const context = createAiSdkContext({ maxTokens: MAX_TOKENS, reserveOutputTokens: RESERVE, tools, onBuild: (result) => void entries.push(result.metadata.inputCount) });
    await generateText({ model, messages, instructions: "You plan trips.", tools, stopWhen: stepCountIs(5), prepareStep: context.prepareStep });
    // Each step imports the whole stored history (plus the instructions) and what the loop added since:
    // a call and its result per step. Had the AI SDK's carried output been built instead, the
    // messages compression and repair left out of step 0 would be missing from step 1.
    const first = entries[0]!;
    expect(first).toBeGreaterThan(messages.length);
    expect(entries).toEqual([first, first + 2, first + 4]);
  });
});

describe("a ToolLoopAgent", () => {
  test("with ctxpipePrepareStep, runs its loop on the broken, over-budget history and sends only valid prompts", async () => {
    const { messages } = brokenHistory(30);
    const { model, prompts } = scriptedModel(script);
    const agent = new ToolLoopAgent({ model, tools, instructions: "You plan trips.", stopWhen: stepCountIs(5), prepareStep: ctxpipePrepareStep({ maxTokens: MAX_TOKENS, tools }) });
    const result = await agent.generate({ messages });
    expect(result.text).toBe("The 8:04 TGV goes to Paris; Lyon has one every hour.");
    expect(prompts).toHaveLength(3);
    for (const prompt of prompts) expect(sentPromptProblems(prompt)).toEqual([]);
  });
});

describe("tool approval", () => {
  test("a call that needs approval, approved in the next request: the tool runs and the model gets the same prompt as without ctxpipe", async () => {
    const booking = { book: tool({ inputSchema: z.object({ to: z.string() }), needsApproval: true, execute: async ({ to }) => `Booked a seat to ${to}.` }) };
    const lastPrompts: ProviderPrompt[] = [];
    for (const prepareStep of [undefined, createAiSdkContext().prepareStep]) {
      const { model, prompts } = scriptedModel([{ toolCall: { id: "call_book", name: "book", input: { to: "Paris" } } }, { text: "Booked." }]);
      const options = { model, tools: booking, stopWhen: stepCountIs(3), ...(prepareStep === undefined ? {} : { prepareStep }) };
      const asked = await generateText({ ...options, messages: [{ role: "user", content: "Book me a seat to Paris." }] });
      const request = asked.content.find((part) => part.type === "tool-approval-request");
      expect(request).toBeDefined();
      const messages: ModelMessage[] = [
        { role: "user", content: "Book me a seat to Paris." },
        ...asked.response.messages,
        { role: "tool", content: [{ type: "tool-approval-response", approvalId: request!.approvalId, approved: true }] },
      ];
      const answered = await generateText({ ...options, messages });
      expect(answered.text).toBe("Booked.");
      expect(sentPromptProblems(prompts.at(-1)!)).toEqual([]);
      lastPrompts.push(prompts.at(-1)!);
    }
    expect(JSON.stringify(lastPrompts[1])).toContain("Booked a seat to Paris.");
    expect(lastPrompts[1]).toEqual(lastPrompts[0]);
  });
});
