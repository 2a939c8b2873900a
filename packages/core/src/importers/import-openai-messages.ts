// Imports OpenAI Chat Completions message params into canonical items, one item per message. The
// messages carry no ids or dates, so items are numbered by position: `${idPrefix}${index}`.
import { z } from "zod";
import type { Item, ItemInput } from "../model/item.js";
import type { ToolCallInput } from "../model/tool-call.js";
import { parsePluginOptions } from "../plugins/parse-plugin-options.js";
import { ExtraFields } from "./extra-fields.js";
import { keepOtherParts } from "./keep-other-parts.js";
import { metadataWithExtra } from "./metadata-with-extra.js";
import { type ChatContentOptions, readChatContent } from "./read-chat-content.js";
import { readChatToolCalls } from "./read-chat-tool-calls.js";
import type { RecordReader } from "./record-reader.js";
import { runImport } from "./run-import.js";
import { withoutUndefined } from "./without-undefined.js";

const SOURCE = "OpenAI message";
const ROLES = ["system", "developer", "user", "assistant", "tool", "function"] as const;

const USER_CONTENT: ChatContentOptions = { images: true, files: true, refusals: false };
const ASSISTANT_CONTENT: ChatContentOptions = { images: false, files: false, refusals: true };
const TEXT_CONTENT: ChatContentOptions = { images: false, files: false, refusals: false };

const optionsSchema = z.object({
  /** Prefix of the generated item ids. Default "msg-". */
  idPrefix: z.string().default("msg-"),
});

export type ImportOpenAIMessagesOptions = z.input<typeof optionsSchema>;

/**
 * Converts OpenAI Chat Completions messages to items. Throws InvalidInputError naming the index and
 * field of every problem; fields it does not know are kept in `metadata.extra`.
 *
 * - system, developer → system.
 * - user → user: text parts joined with "\n"; image_url and file parts → attachments; input_audio and
 *   unknown parts → metadata.extra.parts.
 * - assistant → assistant with its tool_calls; `refusal` is the text when there is no content; a
 *   legacy `function_call` becomes the call `function_call_<index>`.
 * - tool → tool-result; its tool name is taken from the earlier call it answers. A call and a result
 *   with an empty id ("" from some OpenAI-compatible servers) are kept; repair-orphans pairs them by position.
 * - function (legacy) → tool-result answering the function_call of the assistant message right
 *   before it (the legacy API had one call per assistant message), callId `function_call_<index>`.
 */
export function importOpenAIMessages(messages: unknown, options: ImportOpenAIMessagesOptions = {}): Item[] {
  const { idPrefix } = parsePluginOptions("importOpenAIMessages", optionsSchema, options);
  // Tool messages do not repeat the tool name: it is found through the call they answer.
  const toolNames = new Map<string, string>();
  // Index of the previous message when it was an assistant message with a legacy function_call.
  let pendingFunctionCall: { index: number; name: string } | undefined;

  return runImport(SOURCE, messages, (record: Record<string, unknown>, reader: RecordReader): ItemInput[] => {
    const extra = new ExtraFields();
    const message = reader.open(record, [], extra);
    const id = `${idPrefix}${reader.index}`;
    const answered = pendingFunctionCall;
    pendingFunctionCall = undefined;
    const role = message.oneOf("role", ROLES, { required: "an OpenAI message needs a role" });
    // Called last: metadata.extra is what is still unread at that point.
    const metadata = () => metadataWithExtra({}, extra);

    switch (role) {
      case undefined:
        return [];
      case "system":
      case "developer": {
        const content = readChatContent(reader, message, extra, TEXT_CONTENT);
        keepOtherParts(extra, content.otherParts);
        return [{ id, type: "system", text: content.text, metadata: metadata() }];
      }
      case "user": {
        const content = readChatContent(reader, message, extra, USER_CONTENT);
        keepOtherParts(extra, content.otherParts);
        const attachments = content.attachments.length > 0 ? { attachments: content.attachments } : {};
        return [{ id, type: "user", text: content.text, ...attachments, metadata: metadata() }];
      }
      case "assistant": {
        const content = readChatContent(reader, message, extra, ASSISTANT_CONTENT);
        keepOtherParts(extra, content.otherParts);
        let text = content.text;
        if (text.length === 0 && content.refusal !== undefined) text = content.refusal;
        else if (content.refusal !== undefined) extra.keep("refusal", content.refusal);
        if (text.length === 0 && message.has("refusal")) text = message.string("refusal") ?? "";
        const toolCalls: ToolCallInput[] = readChatToolCalls(reader, message, extra);
        const legacy = message.object("function_call", extra);
        if (legacy !== undefined) {
          const name = legacy.string("name", { required: "a function_call needs a name", nonEmpty: true });
          const args = legacy.json("arguments", "{}");
          if (name !== undefined) {
            toolCalls.push({ id: `function_call_${reader.index}`, name, arguments: args });
            pendingFunctionCall = { index: reader.index, name };
          }
        }
        for (const call of toolCalls) if (call.id !== "") toolNames.set(call.id, call.name);
        return [{ id, type: "assistant", text, toolCalls, metadata: metadata() }];
      }
      case "tool": {
        // "" is kept: it answers a call stored without an id, which repair-orphans pairs by position.
        const callId = message.string("tool_call_id", { required: "a tool message needs the tool_call_id of the call it answers" });
        const content = readChatContent(reader, message, extra, TEXT_CONTENT);
        keepOtherParts(extra, content.otherParts);
        if (callId === undefined) return [];
        const toolName = toolNames.get(callId);
        return [{ id, type: "tool-result", callId, output: content.text, ...withoutUndefined({ toolName }), metadata: metadata() }];
      }
      case "function": {
        const name = message.string("name", { required: "a function message needs the function name", nonEmpty: true });
        const content = readChatContent(reader, message, extra, TEXT_CONTENT);
        keepOtherParts(extra, content.otherParts);
        if (answered === undefined) {
          reader.issue([], "a function message must directly follow the assistant message with the function_call it answers");
          return [];
        }
        const toolName = name ?? answered.name;
        return [{ id, type: "tool-result", callId: `function_call_${answered.index}`, toolName, output: content.text, metadata: metadata() }];
      }
    }
  });
}
