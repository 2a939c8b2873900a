// Reads a streamed Anthropic Messages answer. The events: message_start (input usage), per content
// block a content_block_start, its deltas (text_delta, input_json_delta …) and content_block_stop,
// then message_delta (stop_reason, output usage) and message_stop; ping and unknown event types are
// skipped, as Anthropic asks of clients; an error event ends the call.
import { z } from "zod";
import type { ModelReply, ModelToolCall, ModelUsage } from "./model-adapter.js";
import { isObject, readAnthropicUsage } from "./read-anthropic-reply.js";
import { readProviderError, reportedProviderError } from "./read-provider-error.js";
import { readSseEvents } from "./read-sse-events.js";
import { badResponse, emitText, incompleteStream, parseAnswerJson, type ReplyContext } from "./reply-context.js";

const blockStartSchema = z.looseObject({
  index: z.number().int().nonnegative(),
  content_block: z.looseObject({ type: z.string(), text: z.string().optional(), id: z.string().optional(), name: z.string().optional(), input: z.unknown().optional() }),
});

const blockDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative(),
  delta: z.looseObject({ type: z.string(), text: z.string().optional(), partial_json: z.string().optional() }),
});

const messageDeltaSchema = z.looseObject({
  delta: z.looseObject({ stop_reason: z.string().nullish() }),
  usage: z.looseObject({ output_tokens: z.number().optional() }).nullish(),
});

type Block = { type: "text" } | { type: "tool_use"; id: string; name: string; json: string; input: unknown } | { type: "other" };

function parseEvent<Schema extends z.ZodType>(context: ReplyContext, schema: Schema, document: unknown, type: string): z.output<Schema> {
  const parsed = schema.safeParse(document);
  if (!parsed.success) throw badResponse(context, `a ${type} event is malformed:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export async function readAnthropicStream(body: ReadableStream<Uint8Array>, context: ReplyContext): Promise<ModelReply> {
  let text = "";
  const blocks = new Map<number, Block>();
  let stopReason: string | undefined;
  let startUsage: unknown;
  let outputTokens: number | undefined;
  let stopped = false;
  for await (const event of readSseEvents(body)) {
    const document = parseAnswerJson(context, event.data, "a stream event");
    const type = isObject(document) && typeof document.type === "string" ? document.type : event.event;
    if (type === "message_stop") {
      stopped = true;
      break;
    }
    switch (type) {
      case "message_start": {
        const message = isObject(document) ? document.message : undefined;
        startUsage = isObject(message) ? message.usage : undefined;
        break;
      }
      case "content_block_start": {
        const { index, content_block: block } = parseEvent(context, blockStartSchema, document, type);
        if (blocks.has(index)) throw badResponse(context, `content block ${index} started twice`);
        if (block.type === "text") {
          blocks.set(index, { type: "text" });
          text += block.text ?? "";
          emitText(context, block.text ?? "");
        } else if (block.type === "tool_use") {
          if (block.id === undefined || block.id === "") throw badResponse(context, `tool_use block ${index} has no id`);
          if (block.name === undefined || block.name === "") throw badResponse(context, `tool_use block ${index} has no name`);
          blocks.set(index, { type: "tool_use", id: block.id, name: block.name, json: "", input: block.input });
        } else blocks.set(index, { type: "other" });
        break;
      }
      case "content_block_delta": {
        const { index, delta } = parseEvent(context, blockDeltaSchema, document, type);
        const block = blocks.get(index);
        if (block === undefined) throw badResponse(context, `a delta for content block ${index}, which never started`);
        if (delta.type === "text_delta" && block.type === "text") {
          text += delta.text ?? "";
          emitText(context, delta.text ?? "");
        } else if (delta.type === "input_json_delta" && block.type === "tool_use") block.json += delta.partial_json ?? "";
        break;
      }
      case "message_delta": {
        const delta = parseEvent(context, messageDeltaSchema, document, type);
        if (delta.delta.stop_reason != null) stopReason = delta.delta.stop_reason;
        outputTokens = delta.usage?.output_tokens ?? outputTokens;
        // Newer API versions repeat the input counts here; they are the final ones.
        if (isObject(delta.usage) && typeof delta.usage.input_tokens === "number") startUsage = delta.usage;
        break;
      }
      case "error":
        throw reportedProviderError(context.adapter, readProviderError(document) ?? { message: event.data }, "stream");
      default:
        break; // ping, content_block_stop, and event types added after this was written
    }
  }
  if (!stopped) throw incompleteStream(context, "message_stop");
  const toolCalls: ModelToolCall[] = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, block]) => {
      if (block.type !== "tool_use") return [];
      // A tool without parameters streams no JSON at all; its start event holds the (empty) input.
      return [{ id: block.id, name: block.name, arguments: block.json === "" ? JSON.stringify(isObject(block.input) ? block.input : {}) : block.json }];
    });
  const usage: ModelUsage | undefined = readAnthropicUsage(startUsage, outputTokens);
  return { text, toolCalls, ...(stopReason === undefined ? {} : { stopReason }), ...(usage === undefined ? {} : { usage }) };
}
