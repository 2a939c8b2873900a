// Reads a whole (non-streaming) Responses API answer into a ModelReply, and turns a response's `output`
// items into the reply's text, calls and the `openaiResponses` sequence the loop stores, so that the next
// request sends the turn back as the API gave it (reasoning items before the message or call they belong to).
import { type OpenAIResponsesMessageWords, openAIResponsesMessageWords, openAIResponsesTurnText } from "@ctxpipe/core";
import { z } from "zod";
import type { ModelReply, ModelToolCall, ModelUsage } from "./model-adapter.js";
import { type ProviderError, readProviderError, reportedProviderError } from "./read-provider-error.js";
import { badResponse, emitText, parseAnswerJson, type ReplyContext } from "./reply-context.js";

/** What the protocol readers need to know about the request beyond the shared context. */
export interface ResponsesReplyContext extends ReplyContext {
  /**
   * false when the request said `store: false`: the API keeps none of the answer's items, so a reasoning
   * item can only be sent back whole, with its encrypted_content (asked for with include).
   */
  readonly stored: boolean;
}

/** Separates the texts of two message items of one answer (a commentary, then the final answer), and two text parts of one message, as the importer of stored Responses items joins them. */
export const MESSAGE_SEPARATOR = "\n";

const messageSchema = z.looseObject({
  type: z.literal("message"),
  id: z.string().optional(),
  status: z.string().optional(),
  phase: z.enum(["commentary", "final_answer"]).nullish(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() })),
});

const functionCallSchema = z.looseObject({
  type: z.literal("function_call"),
  id: z.string().optional(),
  status: z.string().optional(),
  namespace: z.string().optional(),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});

const reasoningSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string().min(1),
  summary: z.array(z.unknown()),
  encrypted_content: z.string().nullish(),
});

const itemSchema = z.looseObject({ type: z.string() });

const responseSchema = z.looseObject({
  status: z.string().nullish(),
  output: z.array(z.unknown()),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  usage: z.unknown().optional(),
});

/** An output item as the reader needs it; every other field of the item is kept as it came. */
type OutputItem = Readonly<Record<string, unknown>> & { readonly type: string };

function parseItem<Schema extends z.ZodType>(context: ReplyContext, schema: Schema, item: unknown, where: string): z.output<Schema> {
  const parsed = schema.safeParse(item);
  if (!parsed.success) throw badResponse(context, `${where} is malformed:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** What a message item says (core's openAIResponsesMessageWords: its text parts one per line, its refusal apart), checked as a message. */
export function messageItemWords(context: ReplyContext, item: unknown, where: string): OpenAIResponsesMessageWords {
  parseItem(context, messageSchema, item, where);
  return openAIResponsesMessageWords((item as { content: unknown }).content);
}

/**
 * The reply's text, as the importer of stored Responses items and the renderer compute it from the
 * stored messages (core's openAIResponsesTurnText): the messages' texts one per line, a refusal's words
 * when the answer has no other text. So the next build finds the item's text unchanged, and sends the
 * turn back as the API gave it.
 */
export function outputText(context: ReplyContext, output: ReadonlyArray<unknown>): string {
  return openAIResponsesTurnText(
    output.flatMap((item, index) => (typeof item === "object" && item !== null && (item as { type?: unknown }).type === "message" ? [messageItemWords(context, item, `output[${index}]`)] : [])),
  );
}

/** input_tokens already counts the cached tokens (input_tokens_details.cached_tokens is a part of it), as prompt_tokens does. */
export function readResponsesUsage(value: unknown): ModelUsage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { input_tokens: inputTokens, output_tokens: outputTokens } = value as Record<string, unknown>;
  return typeof inputTokens === "number" && typeof outputTokens === "number" ? { inputTokens, outputTokens } : undefined;
}

/** The error a response reports: `{ error }` alone, or a response whose `error` is set (status "failed"). */
export function responseError(document: unknown): ProviderError | undefined {
  if (typeof document !== "object" || document === null) return undefined;
  const { error, status } = document as Record<string, unknown>;
  if (error === undefined || error === null) return status === "failed" ? { message: "the response failed without saying why" } : undefined;
  return readProviderError({ error }) ?? { message: JSON.stringify(error) };
}

export interface OutputReading {
  readonly toolCalls: ReadonlyArray<ModelToolCall>;
  /** The value stored on the assistant message under `openaiResponses`, or undefined when there is nothing to keep. */
  readonly responses?: { readonly sequence: ReadonlyArray<Readonly<Record<string, unknown>>> };
}

/**
 * The calls and the stored sequence of a response's output items, in order: reasoning (and every item
 * type ctxpipe has no model for) verbatim, messages and calls as references whose text, name and
 * arguments the stored message itself holds.
 */
export function readOutputItems(context: ResponsesReplyContext, output: ReadonlyArray<unknown>): OutputReading {
  const toolCalls: ModelToolCall[] = [];
  const sequence: Array<Readonly<Record<string, unknown>>> = [];
  // Without store, a reasoning item without its encrypted content names nothing the API kept: it cannot be
  // sent back, and then neither can the ids of the turn's message and calls, which the API ties to it.
  let reasoningLost = false;
  const withId = (id: string | undefined) => (id !== undefined && id !== "" ? { id } : {});
  output.forEach((raw, index) => {
    const where = `output[${index}]`;
    const item: OutputItem = parseItem(context, itemSchema, raw, where);
    switch (item.type) {
      case "message": {
        const message = parseItem(context, messageSchema, item, where);
        const phase = message.phase ?? undefined;
        // Each message keeps its own content (citations, refusal parts): the renderer sends it back as it was.
        sequence.push({
          type: "message",
          ...withId(message.id),
          ...(phase === undefined ? {} : { phase }),
          ...(message.status === undefined ? {} : { status: message.status }),
          content: storedContent(item.content),
        });
        break;
      }
      case "function_call": {
        const call = parseItem(context, functionCallSchema, item, where);
        // A call the answer cut short (response.incomplete: max_output_tokens) has arguments cut short too: it is not run, nor sent back.
        if (call.status === "incomplete" || call.status === "in_progress") break;
        toolCalls.push({ id: call.call_id, name: call.name, arguments: call.arguments });
        sequence.push({
          type: "function_call",
          call_id: call.call_id,
          ...withId(call.id),
          ...(call.status === undefined ? {} : { status: call.status }),
          ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
        });
        break;
      }
      case "reasoning": {
        const reasoning = parseItem(context, reasoningSchema, item, where);
        if (context.stored || (reasoning.encrypted_content ?? "") !== "") sequence.push(item);
        else reasoningLost = true;
        break;
      }
      default:
        sequence.push(item);
    }
  });
  // All or nothing, as the renderer sends reasoning: a turn that lost one reasoning item keeps none, nor any id.
  const kept = reasoningLost
    ? sequence.flatMap((entry) => (entry.type === "reasoning" ? [] : entry.type === "message" || entry.type === "function_call" ? [withoutId(entry)] : [entry]))
    : sequence;
  const keep = kept.some((entry) => (entry.type !== "message" && entry.type !== "function_call") || "id" in entry || "phase" in entry || "namespace" in entry);
  return { toolCalls, ...(keep ? { responses: { sequence: kept } } : {}) };
}

/** A message's content as stored: as it came, less the empty logprobs list every output_text carries. */
function storedContent(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((part: unknown) => {
    if (typeof part !== "object" || part === null || !Array.isArray((part as { logprobs?: unknown }).logprobs) || (part as { logprobs: unknown[] }).logprobs.length > 0) return part;
    const { logprobs: _empty, ...rest } = part as Record<string, unknown>;
    return rest;
  });
}

function withoutId(entry: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const { id: _id, ...rest } = entry;
  return rest;
}

/** Why the model stopped: "completed", or the reason an incomplete response gives ("max_output_tokens", "content_filter"). */
export function readStopReason(status: string | null | undefined, incomplete: { readonly reason?: string | null | undefined } | null | undefined): string | undefined {
  if (status === "incomplete") return incomplete?.reason ?? "incomplete";
  return status ?? undefined;
}

/** The ModelReply of a finished response: its output items read, its text given. */
export function responsesReply(context: ResponsesReplyContext, response: z.output<typeof responseSchema>, text: string): ModelReply {
  const { toolCalls, responses } = readOutputItems(context, response.output);
  const stopReason = readStopReason(response.status, response.incomplete_details);
  const usage = readResponsesUsage(response.usage);
  return {
    text,
    toolCalls,
    ...(stopReason === undefined ? {} : { stopReason }),
    ...(usage === undefined ? {} : { usage }),
    ...(responses === undefined ? {} : { extra: { openaiResponses: responses } }),
  };
}

/** Parses a Responses `Response` object, or says how it is not one. */
export function parseResponse(context: ReplyContext, document: unknown, where: string): z.output<typeof responseSchema> {
  const parsed = responseSchema.safeParse(document);
  if (!parsed.success) throw badResponse(context, `${where} is not a Responses API response:\n${z.prettifyError(parsed.error)}`);
  const { status } = parsed.data;
  // A background response (background: true) answers before the model has: the loop needs the answer itself.
  if (status === "queued" || status === "in_progress") throw badResponse(context, `${where} is still ${status}: the adapter needs the finished response (do not ask for background: true)`);
  return parsed.data;
}

export function readOpenAIResponsesReply(body: string, context: ResponsesReplyContext): ModelReply {
  const document = parseAnswerJson(context, body, "the answer");
  const error = responseError(document);
  if (error !== undefined) throw reportedProviderError(context.adapter, error, "answer");
  const response = parseResponse(context, document, "the answer");
  const text = outputText(context, response.output);
  // Not streamed, but onText still sees the whole text once, so its pieces always add up to reply.text.
  emitText(context, text);
  return responsesReply(context, response, text);
}
