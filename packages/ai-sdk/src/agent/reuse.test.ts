// What a long agent run does not do again: one context keeps one pipeline and feeds it the same item
// objects every step (prepareStep maps the AI SDK's carried messages back to the caller's; the
// middleware hands back the previous call's message objects for equal messages), so each step
// tokenizes what is new, not the whole history. The test counts the characters the tokenizer is
// given per build, so it fails if reuse silently stops.
import { getEncoding } from "@ctxpipe/tokenizers";
import { generateText, type LanguageModel, stepCountIs, tool, wrapLanguageModel } from "ai";
import { expect, test } from "vitest";
import { z } from "zod";
import { weatherTurns } from "./__fixtures__/broken-history.js";
import { scriptedModel } from "./__fixtures__/scripted-model.js";
import { type AiSdkContext, createAiSdkContext } from "./index.js";

const tools = { train: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}.` }) };
const script = [...[0, 1, 2, 3, 4].map((step) => ({ toolCall: { id: `call_step${step}`, name: "train", input: { to: `City ${step}` } } })), { text: "Done." }];

const ways: ReadonlyArray<[string, (context: AiSdkContext, model: LanguageModel) => { model: LanguageModel; prepareStep?: AiSdkContext["prepareStep"] }]> = [
  ["prepareStep", (context, model) => ({ model, prepareStep: context.prepareStep })],
  ["the middleware", (context, model) => ({ model: wrapLanguageModel({ model: model as never, middleware: context.middleware }) })],
];

test.for(ways)("through %s, each step after the first tokenizes a small fraction of what the first did", async ([_way, wire]) => {
  const o200k = getEncoding("o200k_base");
  let characters = 0;
  const tokenizer = {
    specificationVersion: "v1" as const,
    name: "o200k_base (counting)",
    exact: true,
    count(text: string) {
      characters += text.length;
      return o200k.count(text);
    },
  };
  const perBuild: number[] = [];
  const sizes: number[] = [];
  const context = createAiSdkContext({
    maxTokens: 1_000_000,
    tokenizer,
    onBuild: (result) => {
      perBuild.push(characters);
      sizes.push(JSON.stringify(result.request).length);
      characters = 0;
    },
  });
  const history = weatherTurns(200);
  const { model } = scriptedModel(script);
  await generateText({ ...wire(context, model), messages: history, tools, stopWhen: stepCountIs(6) });

  expect(perBuild).toHaveLength(6);
  const [first, ...later] = perBuild as [number, ...number[]];
  // The first build counts the whole history (over 150,000 characters of JSON)...
  expect(first).toBeGreaterThan(100_000);
  // ...each later one, with a history that grew, a few percent of it.
  for (const count of later) expect(count).toBeLessThan(first * 0.05);
  expect(sizes.at(-1)!).toBeGreaterThan(sizes[0]!);
});
