// Reads a streamed Chat Completions answer: text deltas go to onText as they arrive, tool calls are
// assembled from their indexed deltas (the first carries id and name, the rest pieces of arguments),
// and the usage chunk that stream_options.include_usage asks for comes last, before [DONE].
import { z } from "zod";
import type { ModelReply, ModelToolCall, ModelUsage } from "./model-adapter.js";
import { readOpenAIUsage } from "./read-openai-reply.js";
import { readProviderError, reportedProviderError } from "./read-provider-error.js";
import { readSseEvents } from "./read-sse-events.js";
import { badResponse, emitText, incompleteStream, parseAnswerJson, type ReplyContext } from "./reply-context.js";

const chunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        index: z.number().int().nonnegative().nullish(),
        delta: z
          .looseObject({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z
              .array(
                z.looseObject({
                  index: z.number().int().nonnegative().nullish(),
                  id: z.string().nullish(),
                  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z.unknown().optional(),
});

interface PendingCall {
  id?: string;
  name?: string;
  arguments: string;
}

type ToolCallDelta = NonNullable<NonNullable<NonNullable<z.output<typeof chunkSchema>["choices"]>[number]["delta"]>["tool_calls"]>[number];

/** Adds one tool-call delta. A server that leaves out `index` gets a new call for each new id. */
function addToolCallDelta(calls: Map<number, PendingCall>, delta: ToolCallDelta): void {
  let index = delta.index ?? undefined;
  if (index === undefined) {
    const last = calls.size - 1;
    index = delta.id != null && delta.id !== calls.get(last)?.id ? calls.size : Math.max(last, 0);
  }
  let call = calls.get(index);
  if (call === undefined) {
    call = { arguments: "" };
    calls.set(index, call);
  }
  // id and name come once; a server that repeats them must not double them.
  if (delta.id != null && delta.id !== "") call.id ??= delta.id;
  if (delta.function?.name != null && delta.function.name !== "") call.name ??= delta.function.name;
  call.arguments += delta.function?.arguments ?? "";
}

function finishToolCalls(calls: Map<number, PendingCall>, context: ReplyContext): ModelToolCall[] {
  return [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => {
      if (call.id === undefined) throw badResponse(context, `streamed tool call ${index} has no id`);
      if (call.name === undefined) throw badResponse(context, `streamed tool call ${index} (${call.id}) has no name`);
      return { id: call.id, name: call.name, arguments: call.arguments };
    });
}

export async function readOpenAIStream(body: ReadableStream<Uint8Array>, context: ReplyContext): Promise<ModelReply> {
  let text = "";
  const calls = new Map<number, PendingCall>();
  let stopReason: string | undefined;
  let usage: ModelUsage | undefined;
  let done = false;
  for await (const event of readSseEvents(body)) {
    if (event.data.trim() === "[DONE]") {
      done = true;
      break;
    }
    const document = parseAnswerJson(context, event.data, "a stream event");
    // OpenAI and vLLM report a failure after the 200 as an event holding only {error}.
    if (typeof document === "object" && document !== null && "error" in document) {
      throw reportedProviderError(context.adapter, readProviderError(document) ?? { message: event.data }, "stream");
    }
    const parsed = chunkSchema.safeParse(document);
    if (!parsed.success) throw badResponse(context, `a stream event is not a Chat Completions chunk:\n${z.prettifyError(parsed.error)}`);
    usage = readOpenAIUsage(parsed.data.usage) ?? usage;
    for (const choice of parsed.data.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta?.content ?? choice.delta?.refusal ?? "";
      text += delta;
      emitText(context, delta);
      for (const call of choice.delta?.tool_calls ?? []) addToolCallDelta(calls, call);
      if (choice.finish_reason != null) stopReason = choice.finish_reason;
    }
  }
  // Servers that do not send [DONE] have at least said why the model stopped.
  if (!done && stopReason === undefined) throw incompleteStream(context, "[DONE]");
  return {
    text,
    toolCalls: finishToolCalls(calls, context),
    ...(stopReason === undefined ? {} : { stopReason }),
    ...(usage === undefined ? {} : { usage }),
  };
}
