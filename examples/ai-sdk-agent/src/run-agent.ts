// The agent: generateText with a tool, several steps, and ctxpipe in prepareStep. The model is the AI
// SDK's mock, scripted to call the tool and then answer, so the example runs offline.
import { type AiSdkBuildInfo, createAiSdkContext } from "@ctxpipe/ai-sdk";
import { convertToModelMessages, generateText, stepCountIs, type ToolSet, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { storedChat } from "./stored-chat.js";

/** What one step's build did, for printing. */
export interface StepRow {
  readonly step: number;
  readonly tokenCount: number;
  readonly inputBudget: number;
  readonly messagesSent: number;
  /** "id: decision: reason" for each repair of the build: a copy dropped, a result synthesized… */
  readonly repairs: ReadonlyArray<string>;
  /** Old tool results replaced by a placeholder to fit the budget. */
  readonly cleared: number;
  /** Old messages left out to fit the budget. */
  readonly leftOut: number;
}

export interface AgentRun {
  readonly text: string;
  readonly steps: ReadonlyArray<StepRow>;
  /** Every prompt the model received. */
  readonly prompts: ReadonlyArray<unknown>;
}

const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 0, text: 0, reasoning: undefined } };

/** A mock "gpt-4o" that calls the train tool, then answers from its result. */
function scriptedModel(prompts: unknown[]) {
  return new MockLanguageModelV4({
    modelId: "gpt-4o",
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      if (prompts.length === 1) {
        return { content: [{ type: "tool-call", toolCallId: "call_train", toolName: "train", input: '{"to":"Paris"}' }], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
      }
      return { content: [{ type: "text", text: "Tomorrow the TGV leaves for Paris at 8:04, then every hour." }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
    },
  });
}

export const tools: ToolSet = {
  weather: tool({ description: "The week's weather in a city", inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `Mild in ${city}.` }),
  train: tool({ description: "Tomorrow's trains to a city", inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `TGV to ${to}: 8:04, then every hour.` }),
};

export async function runAgent(): Promise<AgentRun> {
  const prompts: unknown[] = [];
  const steps: StepRow[] = [];
  const context = createAiSdkContext({
    // The example's budget, as if the model's window were 4,000 tokens (by default it is the model's own).
    maxTokens: 4_000,
    reserveOutputTokens: 500,
    tools,
    onBuild: (result, info: AiSdkBuildInfo) => {
      const entries = [...result.report.entries, ...result.report.synthesized];
      steps.push({
        step: info.stepNumber ?? steps.length,
        tokenCount: result.tokenCount,
        inputBudget: info.maxTokens - info.reserveOutputTokens,
        messagesSent: result.request.messages.length,
        repairs: entries
          .filter((entry) => entry.stage === "repair-orphans" && entry.decision !== "kept")
          .map((entry) => `${entry.id}: ${entry.decision}: ${entry.reason}`),
        cleared: entries.filter((entry) => entry.decision === "cleared").length,
        leftOut: entries.filter((entry) => entry.decision === "dropped" && entry.stage === "compress").length,
      });
    },
  });
  const result = await generateText({
    model: scriptedModel(prompts),
    instructions: "You are a travel assistant.",
    messages: await convertToModelMessages(storedChat()),
    // retrieve_context: the placeholders of cleared results name a handle the model can read back.
    tools: { ...tools, ...context.tools },
    stopWhen: stepCountIs(5),
    prepareStep: context.prepareStep,
  });
  return { text: result.text, steps, prompts };
}
