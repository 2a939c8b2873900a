// A context made once at module scope and shared by concurrent requests (`const prepareStep =
// ctxpipePrepareStep()` in a server) must keep conversations apart: each request's model receives
// exactly what a context of its own would have sent it.
import { generateText, type ModelMessage, stepCountIs, tool } from "ai";
import { expect, test } from "vitest";
import { z } from "zod";
import { brokenHistory, weatherTurns } from "./__fixtures__/broken-history.js";
import { sentPromptProblems } from "./__fixtures__/check-sent-prompt.js";
import { scriptedModel } from "./__fixtures__/scripted-model.js";
import { type AiSdkContext, createAiSdkContext } from "./index.js";

const tools = { train: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `The 8:04 TGV to ${to}.` }) };

const conversations: ReadonlyArray<ModelMessage[]> = [
  brokenHistory(30).messages,
  brokenHistory(12, { unanswered: false }).messages,
  [...weatherTurns(25), { role: "user", content: "Trains to Lyon?" }],
  [{ role: "user", content: "Hello" }],
];

async function run(context: AiSdkContext, messages: ModelMessage[], index: number) {
  const { model, prompts } = scriptedModel([{ toolCall: { id: `call_${index}`, name: "train", input: { to: `City ${index}` } } }, { text: `Done ${index}.` }]);
  const result = await generateText({ model, messages, tools, stopWhen: stepCountIs(4), prepareStep: context.prepareStep });
  return { text: result.text, prompts };
}

test("concurrent runs through one shared context each get what a context of their own sends", async () => {
  const options = { maxTokens: 3_000, reserveOutputTokens: 500, tools };
  const alone: Array<Awaited<ReturnType<typeof run>>> = [];
  for (const [index, messages] of conversations.entries()) alone.push(await run(createAiSdkContext(options), messages, index));

  const shared = createAiSdkContext(options);
  // Twice over, interleaved: the second round finds the first round's work in the shared pipeline.
  const together = await Promise.all([...conversations, ...conversations].map((messages, index) => run(shared, messages, index % conversations.length)));

  together.forEach((outcome, index) => {
    const own = alone[index % conversations.length]!;
    expect(outcome.text).toBe(own.text);
    expect(outcome.prompts).toEqual(own.prompts);
    for (const prompt of outcome.prompts) expect(sentPromptProblems(prompt)).toEqual([]);
  });
});
