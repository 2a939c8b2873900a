// Reads a whole (non-streaming) Anthropic Messages answer into a ModelReply: text blocks make the
// text, tool_use blocks the tool calls (their input written back as JSON text); thinking is not kept.
import { z } from "zod";
import type { ModelReply, ModelToolCall, ModelUsage } from "./model-adapter.js";
import { readProviderError, reportedProviderError } from "./read-provider-error.js";
import { badResponse, emitText, parseAnswerJson, type ReplyContext } from "./reply-context.js";

const messageSchema = z.looseObject({
  content: z.array(
    z.looseObject({
      type: z.string(),
      text: z.unknown().optional(),
      id: z.unknown().optional(),
      name: z.unknown().optional(),
      input: z.unknown().optional(),
    }),
  ),
  stop_reason: z.string().nullish(),
  usage: z.unknown().optional(),
});

function count(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

/**
 * input_tokens counts only what was not read from or written to the prompt cache; the cache counts
 * are added back so inputTokens is the whole prompt, as OpenAI's prompt_tokens is.
 */
export function readAnthropicUsage(value: unknown, outputTokens?: number): ModelUsage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const usage = value as Record<string, unknown>;
  if (typeof usage.input_tokens !== "number") return undefined;
  const output = outputTokens ?? usage.output_tokens;
  return {
    inputTokens: usage.input_tokens + count(usage.cache_creation_input_tokens) + count(usage.cache_read_input_tokens),
    outputTokens: typeof output === "number" ? output : 0,
  };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readAnthropicReply(body: string, context: ReplyContext): ModelReply {
  const document = parseAnswerJson(context, body, "the answer");
  if (isObject(document) && document.type === "error") {
    throw reportedProviderError(context.adapter, readProviderError(document) ?? { message: body }, "answer");
  }
  const parsed = messageSchema.safeParse(document);
  if (!parsed.success) throw badResponse(context, `the answer is not an Anthropic message:\n${z.prettifyError(parsed.error)}`);
  let text = "";
  const toolCalls: ModelToolCall[] = [];
  parsed.data.content.forEach((block, index) => {
    if (block.type === "text") {
      if (typeof block.text !== "string") throw badResponse(context, `content[${index}] (text) has no text`);
      text += block.text;
    } else if (block.type === "tool_use") {
      if (typeof block.id !== "string" || block.id === "") throw badResponse(context, `content[${index}] (tool_use) has no id`);
      if (typeof block.name !== "string" || block.name === "") throw badResponse(context, `content[${index}] (tool_use) has no name`);
      if (!isObject(block.input)) throw badResponse(context, `content[${index}] (tool_use) has no input object`);
      toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
    }
  });
  // Not streamed, but onText still sees the whole text once, so its pieces always add up to reply.text.
  emitText(context, text);
  const usage = readAnthropicUsage(parsed.data.usage);
  const stopReason = parsed.data.stop_reason;
  return { text, toolCalls, ...(stopReason == null ? {} : { stopReason }), ...(usage === undefined ? {} : { usage }) };
}
