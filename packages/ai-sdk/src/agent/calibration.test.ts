// Claude and Gemini have no local tokenizer: ctxpipe counts them with an approximation (o200k_base
// times a factor, plus a margin) that learns from the input tokens the provider reports. The context
// feeds it what each call reported, through prepareStep (the previous step's usage) and through the
// middleware (the call's usage, generated or streamed), so a model that counts more than the
// approximation gets a tighter, safe count from the next call on. An exact tokenizer never changes.
import { generateText, type LanguageModel, type ModelMessage, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { expect, test } from "vitest";
import { z } from "zod";
import { weatherTurns } from "./__fixtures__/broken-history.js";
import { scriptedModel } from "./__fixtures__/scripted-model.js";
import { type AiSdkContext, createAiSdkContext } from "./index.js";

const tools = { train: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}.` }) };
const messages: ModelMessage[] = weatherTurns(20);

type Wire = (context: AiSdkContext, model: LanguageModel) => Promise<void>;

const ways: ReadonlyArray<[string, Wire]> = [
  [
    "prepareStep, from one step to the next",
    async (context, model) => {
      await generateText({ model, messages, tools, stopWhen: stepCountIs(3), prepareStep: context.prepareStep });
    },
  ],
  [
    "the middleware, generating",
    async (context, model) => {
      const wrapped = wrapLanguageModel({ model: model as never, middleware: context.middleware });
      await generateText({ model: wrapped, messages, tools, stopWhen: stepCountIs(3) });
    },
  ],
  [
    "the middleware, streaming",
    async (context, model) => {
      const wrapped = wrapLanguageModel({ model: model as never, middleware: context.middleware });
      await streamText({ model: wrapped, messages, tools, stopWhen: stepCountIs(3) }).consumeStream();
    },
  ],
];

test.for(ways)("through %s: an approximation learns the provider's count; an exact tokenizer does not move", async ([_way, wire]) => {
  const ratios: Record<string, number> = {};
  for (const modelId of ["claude-sonnet-4-5", "gpt-4o"]) {
    const counts: number[] = [];
    // The provider counts 1.6 times what ctxpipe counted for the request it received.
    const { model } = scriptedModel([{ toolCall: { id: "call_a", name: "train", input: { to: "Paris" } } }, { text: "Done." }], modelId, () => Math.round(counts.at(-1)! * 1.6));
    const context = createAiSdkContext({ tools, onBuild: (result) => void counts.push(result.tokenCount) });
    await wire(context, model);
    expect(counts).toHaveLength(2);
    ratios[modelId] = counts[1]! / counts[0]!;
  }
  // The second call's history is the first's plus one small call and result.
  expect(ratios["claude-sonnet-4-5"]).toBeGreaterThan(1.4);
  expect(ratios["gpt-4o"]).toBeLessThan(1.1);
});
