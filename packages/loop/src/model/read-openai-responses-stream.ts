// Reads a streamed Responses API answer. Each output item is announced (response.output_item.added),
// filled by deltas keyed by its output_index (output_text, refusal, function_call_arguments; parallel
// calls interleave) and finished (response.output_item.done, the complete item: a reasoning item's
// encrypted_content is only there). response.completed or response.incomplete ends the answer with its
// usage; response.failed and error events are the provider's error. Other event types are skipped.
// The text given to onText is the reply's text, which is what the importer and the renderer compute from
// the stored messages: text parts one per line (a line break between two parts or two messages), and a
// refusal's words only when the answer has no other text, so refusal deltas wait for the end.
import { z } from "zod";
import type { ModelReply } from "./model-adapter.js";
import { readProviderError, reportedProviderError } from "./read-provider-error.js";
import { MESSAGE_SEPARATOR, messageItemWords, outputText, parseResponse, type ResponsesReplyContext, responseError, responsesReply } from "./read-openai-responses-reply.js";
import { readSseEvents } from "./read-sse-events.js";
import { badResponse, emitText, incompleteStream, parseAnswerJson } from "./reply-context.js";

const itemEventSchema = z.looseObject({ output_index: z.number().int().nonnegative(), item: z.looseObject({ type: z.string() }) });
const deltaEventSchema = z.looseObject({ output_index: z.number().int().nonnegative(), content_index: z.number().int().nonnegative().optional(), delta: z.string() });
const argumentsDoneSchema = z.looseObject({ output_index: z.number().int().nonnegative(), arguments: z.string() });
const responseEventSchema = z.looseObject({ response: z.unknown() });

/** One output item as far as the stream has told it. */
interface StreamedItem {
  added?: Readonly<Record<string, unknown>>;
  done?: Readonly<Record<string, unknown>>;
  /** The output_text deltas of a message item, by content part. */
  parts: Map<number, string>;
  /** The argument deltas of a function call, or its arguments.done text. */
  arguments: string;
}

function parseEvent<Schema extends z.ZodType>(context: ResponsesReplyContext, schema: Schema, document: unknown, type: string): z.output<Schema> {
  const parsed = schema.safeParse(document);
  if (!parsed.success) throw badResponse(context, `a ${type} event is malformed:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The item as it ended: the done event's, else the final response's, else what the added event and the deltas made. */
function finalItem(item: StreamedItem, fromResponse: unknown): unknown {
  if (item.done !== undefined) return item.done;
  if (fromResponse !== undefined) return fromResponse;
  const added = item.added ?? {};
  if (added.type === "message") {
    const parts = [...item.parts.entries()].sort(([a], [b]) => a - b);
    return { ...added, content: parts.map(([, text]) => ({ type: "output_text", text, annotations: [] })) };
  }
  if (added.type === "function_call") return { ...added, arguments: item.arguments };
  return added;
}

export async function readOpenAIResponsesStream(body: ReadableStream<Uint8Array>, context: ResponsesReplyContext): Promise<ModelReply> {
  const items = new Map<number, StreamedItem>();
  // reply.text is exactly what onText was given: message texts in the order they arrived, separated.
  let text = "";
  /** The part ("output index:content index") the last text came from: text from another one starts a new line. */
  let lastPart: string | undefined;
  const emitPartText = (part: string, delta: string) => {
    if (delta === "") return;
    if (lastPart !== undefined && lastPart !== part && text !== "") {
      text += MESSAGE_SEPARATOR;
      emitText(context, MESSAGE_SEPARATOR);
    }
    lastPart = part;
    text += delta;
    emitText(context, delta);
  };
  const itemAt = (index: number): StreamedItem => {
    let item = items.get(index);
    if (item === undefined) {
      item = { parts: new Map(), arguments: "" };
      items.set(index, item);
    }
    return item;
  };
  const streamedText = (index: number) => [...itemAt(index).parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part).join(MESSAGE_SEPARATOR);
  /** A message's text the deltas did not give (a server that sends only whole items), given when the item ends. */
  const finishMessage = (index: number, final: unknown) => {
    const streamed = streamedText(index);
    const whole = messageItemWords(context, final, `output[${index}]`).text;
    if (!whole.startsWith(streamed) || whole === streamed) return;
    // The rest carries its own line breaks between parts: it continues the item's last part.
    const parts = itemAt(index).parts;
    const last = parts.size === 0 ? undefined : Math.max(...parts.keys());
    emitPartText(`${index}:${last ?? "whole"}`, whole.slice(streamed.length));
    parts.clear();
    parts.set(0, whole);
  };

  for await (const event of readSseEvents(body)) {
    // Some compatible servers end with the Chat Completions marker; the protocol's end is response.completed.
    if (event.data.trim() === "[DONE]") continue;
    const document = parseAnswerJson(context, event.data, "a stream event");
    const type = typeof document === "object" && document !== null && typeof (document as { type?: unknown }).type === "string" ? (document as { type: string }).type : event.event;
    switch (type) {
      case "response.output_item.added": {
        const { output_index: index, item } = parseEvent(context, itemEventSchema, document, type);
        itemAt(index).added = item;
        break;
      }
      case "response.output_text.delta": {
        const { output_index: index, content_index: part = 0, delta } = parseEvent(context, deltaEventSchema, document, type);
        const { parts } = itemAt(index);
        parts.set(part, (parts.get(part) ?? "") + delta);
        emitPartText(`${index}:${part}`, delta);
        break;
      }
      case "response.function_call_arguments.delta": {
        const { output_index: index, delta } = parseEvent(context, deltaEventSchema, document, type);
        itemAt(index).arguments += delta;
        break;
      }
      case "response.function_call_arguments.done": {
        const { output_index: index, arguments: whole } = parseEvent(context, argumentsDoneSchema, document, type);
        itemAt(index).arguments = whole;
        break;
      }
      case "response.output_item.done": {
        const { output_index: index, item } = parseEvent(context, itemEventSchema, document, type);
        itemAt(index).done = item;
        if (item.type === "message") finishMessage(index, item);
        break;
      }
      case "response.completed":
      case "response.incomplete": {
        const response = parseResponse(context, parseEvent(context, responseEventSchema, document, type).response, `the ${type} event`);
        // The final response lists every item; one the stream never finished is taken from it.
        const fromResponse = response.output;
        const indexes = [...new Set([...fromResponse.keys(), ...items.keys()])].sort((a, b) => a - b);
        const output = indexes.map((index) => finalItem(itemAt(index), fromResponse[index]));
        output.forEach((item, index) => {
          if (typeof item === "object" && item !== null && (item as { type?: unknown }).type === "message" && itemAt(indexes[index]!).done === undefined) finishMessage(indexes[index]!, item);
        });
        // What is still to say: a refusal, when the answer has no other text. Should the stream's text
        // differ from the items' (a server whose deltas and items disagree), it stays what onText was given.
        const whole = outputText(context, output);
        const rest = whole.startsWith(text) ? whole.slice(text.length) : "";
        if (rest !== "") {
          text += rest;
          emitText(context, rest);
        }
        return responsesReply(context, { ...response, output }, text);
      }
      case "response.failed": {
        const { response } = parseEvent(context, responseEventSchema, document, type);
        throw reportedProviderError(context.adapter, responseError(response) ?? { message: "the response failed without saying why" }, "stream");
      }
      case "error":
        throw reportedProviderError(context.adapter, readProviderError(document) ?? { message: event.data }, "stream");
      default:
        break; // response.created, content parts, refusal and reasoning summary deltas, and event types added after this was written
    }
  }
  throw incompleteStream(context, "response.completed");
}
