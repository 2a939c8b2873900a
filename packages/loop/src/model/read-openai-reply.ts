// Reads a whole (non-streaming) Chat Completions answer into a ModelReply. Only the first choice is
// read: the adapter never asks for more.
import { z } from "zod";
import type { ModelReply, ModelToolCall, ModelUsage } from "./model-adapter.js";
import { badResponse, emitText, parseAnswerJson, type ReplyContext } from "./reply-context.js";
import { readProviderError, reportedProviderError } from "./read-provider-error.js";

const completionSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z
            .array(
              z.looseObject({
                id: z.string().min(1),
                function: z.looseObject({
                  name: z.string().min(1),
                  // Some compatible servers send the arguments as an object rather than JSON text.
                  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
                }),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.unknown().optional(),
});

/** prompt_tokens and completion_tokens, when the server reports both. */
export function readOpenAIUsage(value: unknown): ModelUsage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { prompt_tokens: inputTokens, completion_tokens: outputTokens } = value as Record<string, unknown>;
  return typeof inputTokens === "number" && typeof outputTokens === "number" ? { inputTokens, outputTokens } : undefined;
}

export function readOpenAIReply(body: string, context: ReplyContext): ModelReply {
  const document = parseAnswerJson(context, body, "the answer");
  if (typeof document === "object" && document !== null && "error" in document) {
    throw reportedProviderError(context.adapter, readProviderError(document) ?? { message: body }, "answer");
  }
  const parsed = completionSchema.safeParse(document);
  if (!parsed.success) throw badResponse(context, `the answer is not a Chat Completions answer:\n${z.prettifyError(parsed.error)}`);
  const choice = parsed.data.choices[0]!;
  const text = choice.message.content ?? choice.message.refusal ?? "";
  const toolCalls: ModelToolCall[] = (choice.message.tool_calls ?? []).map((call) => ({
    id: call.id,
    name: call.function.name,
    arguments: typeof call.function.arguments === "string" ? call.function.arguments : JSON.stringify(call.function.arguments ?? {}),
  }));
  // Not streamed, but onText still sees the whole text once, so its pieces always add up to reply.text.
  emitText(context, text);
  const usage = readOpenAIUsage(parsed.data.usage);
  return {
    text,
    toolCalls,
    ...(choice.finish_reason == null ? {} : { stopReason: choice.finish_reason }),
    ...(usage === undefined ? {} : { usage }),
  };
}
