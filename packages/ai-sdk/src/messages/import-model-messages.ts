// Imports an AI SDK ModelMessage history (what generateText and streamText take as `messages`, and
// what prepareStep receives) into ctxpipe items.
import { type Item, type ItemInput, parsePluginOptions } from "@ctxpipe/core";
import type { ModelMessage } from "ai";
import { z } from "zod";
import { type AiSdkExtra, metadataWith } from "./ai-sdk-extra.js";
import { importEachMessage } from "./import-each-message.js";
import { MessageMemo } from "./message-memo.js";
import { describeValue, isRecord, type IssueSink, readAssistantContent, readToolResultPart, readUserContent } from "./read-model-content.js";

const SOURCE = "AI SDK model message";

const optionsSchema = z.strictObject({
  /** Prefix of the ids made from positions: `${idPrefix}${index}`. Default "msg-". */
  idPrefix: z.string().default("msg-"),
  /**
   * The id of the message at `index`, when your messages have ids of their own (a database key kept
   * beside each message, say). Default: `${idPrefix}${index}`.
   */
  idOf: z.custom<(message: ModelMessage, index: number) => string>((value) => typeof value === "function", "expected a function (message, index) => id").optional(),
});

export type ImportModelMessagesOptions = z.input<typeof optionsSchema>;

const memo = new MessageMemo();

/**
 * Converts AI SDK ModelMessages to items, one message at a time:
 * - system → a system item; user → a user item (text parts joined with "\n", images and files as
 *   attachments); assistant → one assistant item holding all of its tool calls, its reasoning and its
 *   text; tool → one tool-result item per tool-result part, in order.
 * - What the item model has no field for (provider options, output types, files of an assistant,
 *   calls a provider executed with their results, approval requests and responses) is kept in
 *   `metadata.extra.aiSdk`, and the "ai-sdk" renderer gives it back.
 * - Ids: ModelMessages have none, so a message's id is its position, `${idPrefix}${index}` ("msg-0",
 *   "msg-1" …), and a tool result's is `${messageId}.${partIndex}` ("msg-3.0"). They stay the same
 *   while the history only grows at its end; give `idOf` for ids that survive edits in the middle.
 * - Importing the same message object at the same position again gives the same item objects (frozen),
 *   so an agent that imports its whole history before every model call pays only for new messages.
 *   As with build(), treat a message as unchangeable once passed: to change one, pass a new object.
 *
 * Throws one InvalidInputError naming the index, id and field of every problem in the list.
 */
export function importModelMessages(messages: ReadonlyArray<ModelMessage>, options: ImportModelMessagesOptions = {}): Item[] {
  const { idPrefix, idOf } = parsePluginOptions("importModelMessages", optionsSchema, options);
  return importEachMessage(messages, {
    source: SOURCE,
    noun: "ModelMessages",
    memo,
    idOf: (message, index) => {
      const id = idOf === undefined ? `${idPrefix}${index}` : idOf(message as ModelMessage, index);
      return typeof id === "string" && id.length > 0 ? id : { path: [], problem: `idOf gave ${describeValue(id)} for this message; an id is a non-empty string` };
    },
    read: readModelMessage,
  });
}

/** The items of one message; they are complete items (every default filled in). */
export function readModelMessage(message: unknown, id: string, issues: IssueSink): ItemInput[] {
  if (!isRecord(message)) {
    issues.issue([], `expected a message object, got ${describeValue(message)}`);
    return [];
  }
  const providerOptions = message.providerOptions;
  switch (message.role) {
    case "system": {
      if (typeof message.content !== "string") {
        issues.issue(["content"], `a system message's content is its text (a string), got ${describeValue(message.content)}`);
        return [];
      }
      return [{ id, type: "system", role: "system", text: message.content, metadata: metadataWith({ providerOptions }) }];
    }
    case "user": {
      const fields = readUserContent(message.content, ["content"], issues);
      const extra: AiSdkExtra = { providerOptions, ...(Array.isArray(message.content) ? { content: message.content } : {}), ...(fields.parts.length > 0 ? { parts: fields.parts } : {}) };
      return [{ id, type: "user", role: "user", text: fields.text, ...(fields.attachments.length > 0 ? { attachments: [...fields.attachments] } : {}), metadata: metadataWith(extra) }];
    }
    case "assistant": {
      const fields = readAssistantContent(message.content, ["content"], issues);
      const extra: AiSdkExtra = { providerOptions, ...(Array.isArray(message.content) ? { content: message.content } : {}), ...(fields.parts.length > 0 ? { parts: fields.parts } : {}) };
      return [
        {
          id,
          type: "assistant",
          role: "assistant",
          text: fields.text,
          toolCalls: fields.toolCalls.map((call) => ({ ...call, kind: "tool" })),
          ...(fields.reasoning.length > 0 ? { reasoning: fields.reasoning.map((entry) => ({ ...entry })) } : {}),
          metadata: metadataWith(extra),
        },
      ];
    }
    case "tool":
      return readToolMessage(message, id, issues);
    default:
      issues.issue(["role"], `expected the role "system", "user", "assistant" or "tool", got ${describeValue(message.role)}`);
      return [];
  }
}

/**
 * One tool-result item per result part. Approval responses and parts of other types are kept on the
 * first result; a message with no result at all (only approval responses) becomes an empty assistant
 * item carrying them, which the default filter leaves out of the request, and reports.
 */
function readToolMessage(message: Record<string, unknown>, id: string, issues: IssueSink): ItemInput[] {
  const content = message.content;
  if (!Array.isArray(content)) {
    issues.issue(["content"], `a tool message's content is an array of tool-result parts, got ${describeValue(content)}`);
    return [];
  }
  const results: ItemInput[] = [];
  const others: unknown[] = [];
  for (let position = 0; position < content.length; position++) {
    const part: unknown = content[position];
    const path = ["content", position];
    if (!isRecord(part)) {
      issues.issue(path, `expected a part object, got ${describeValue(part)}`);
      continue;
    }
    if (part.type !== "tool-result") {
      others.push(part);
      continue;
    }
    const fields = readToolResultPart(part, path, issues);
    if (fields === undefined) continue;
    const first = results.length === 0;
    results.push({
      id: `${id}.${position}`,
      type: "tool-result",
      role: "tool",
      callId: fields.callId,
      toolName: fields.toolName,
      output: fields.output,
      isError: fields.isError,
      kind: "tool",
      // The message's own fields go with its first result, which opens the message when rendered.
      metadata: metadataWith({ part, ...(first ? { providerOptions: message.providerOptions } : {}) }),
    });
  }
  if (others.length === 0) return results;
  const [head] = results;
  if (head === undefined) {
    return [{ id, type: "assistant", role: "assistant", text: "", toolCalls: [], metadata: metadataWith({ providerOptions: message.providerOptions, approvalResponses: others }) }];
  }
  const headExtra = head.metadata?.extra?.aiSdk as AiSdkExtra;
  results[0] = { ...head, metadata: metadataWith({ ...headExtra, approvalResponses: others }) };
  return results;
}
