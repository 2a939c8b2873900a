// A MockLanguageModelV4 (from `ai/test`) scripted for an agent loop: each call answers with the next
// reply of the script (a tool call, or text), through doGenerate or doStream, and every prompt it
// receives is recorded for the test to check.
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import type { ProviderPrompt } from "../provider-prompt.js";

export type ScriptedReply = { readonly text: string } | { readonly toolCall: { readonly id: string; readonly name: string; readonly input: unknown } };

function usageOf(inputTokens: number) {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 10, text: 10, reasoning: undefined },
  };
}

export interface ScriptedModel {
  readonly model: MockLanguageModelV4;
  /** Every prompt the model received, in call order. */
  readonly prompts: ProviderPrompt[];
}

/**
 * `inputTokens` says what the model reports as the call's input tokens (as a provider counts them);
 * default 100.
 */
export function scriptedModel(script: ReadonlyArray<ScriptedReply>, modelId = "gpt-4o", inputTokens: (prompt: ProviderPrompt) => number = () => 100): ScriptedModel {
  const prompts: ProviderPrompt[] = [];
  const next = (prompt: ProviderPrompt): ScriptedReply => {
    prompts.push(prompt);
    return script[Math.min(prompts.length - 1, script.length - 1)]!;
  };
  const model = new MockLanguageModelV4({
    modelId,
    provider: "mock.chat",
    doGenerate: async ({ prompt }) => {
      const reply = next(prompt);
      const usage = usageOf(inputTokens(prompt));
      if ("text" in reply) return { content: [{ type: "text", text: reply.text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      const { id, name, input } = reply.toolCall;
      return {
        content: [{ type: "tool-call", toolCallId: id, toolName: name, input: JSON.stringify(input) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
    doStream: async ({ prompt }) => {
      const reply = next(prompt);
      const usage = usageOf(inputTokens(prompt));
      const finish = { type: "finish" as const, usage, finishReason: "text" in reply ? { unified: "stop" as const, raw: "stop" } : { unified: "tool-calls" as const, raw: "tool_calls" } };
      const body =
        "text" in reply
          ? [
              { type: "text-start" as const, id: "t" },
              { type: "text-delta" as const, id: "t", delta: reply.text },
              { type: "text-end" as const, id: "t" },
            ]
          : [{ type: "tool-call" as const, toolCallId: reply.toolCall.id, toolName: reply.toolCall.name, input: JSON.stringify(reply.toolCall.input) }];
      return { stream: simulateReadableStream({ chunks: [{ type: "stream-start" as const, warnings: [] }, ...body, finish] }) };
    },
  });
  return { model, prompts };
}
