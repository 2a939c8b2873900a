// Renders one item as the Responses input items it adds, a pure function of the item and the system role.
// Every item type is sent as the Chat Completions renderer sends it (labelled text in its role for
// subagents, todos and task outcomes; thinking left out), in the Responses shapes: messages, function
// calls and their outputs, the assistant turn's stored reasoning, and stored items of other types verbatim.
import { type Attachment, isBlank, type Item, type ItemOf, openAIResponsesExtraOf, summaryHeading } from "@ctxpipe/core";
import type { OpenAIResponsesFunctionCallOutput, OpenAIResponsesInputContent, OpenAIResponsesInputItem, OpenAIResponsesOutputContent, OpenAIResponsesVerbatimItem } from "./openai-responses-request.js";
import { describeValue, inputItemView } from "./openai-responses-input-view.js";
import { idRefusal } from "./openai-responses-item-rules.js";
import { renderOpenAIResponsesAssistantTurn } from "./render-openai-responses-assistant-turn.js";
import { storedResponsesItems } from "./stored-responses-items.js";

export type OpenAIResponsesSystemRole = "developer" | "system";

export interface OpenAIResponsesItemOptions {
  /** The role of a system message inside the input (the leading ones are the instructions). */
  readonly systemRole: OpenAIResponsesSystemRole;
}

export interface RenderedOpenAIResponsesItem {
  /** Stored items of unknown types that stood before the item (metadata.extra.openaiResponses.before), verbatim. */
  readonly before: ReadonlyArray<OpenAIResponsesVerbatimItem>;
  /** The item's own input items; empty when it has nothing to send (then `dropped` says why). */
  readonly own: ReadonlyArray<OpenAIResponsesInputItem>;
  /** Stored items of unknown types that stood after the item (metadata.extra.openaiResponses.after), verbatim. */
  readonly after: ReadonlyArray<OpenAIResponsesVerbatimItem>;
  readonly dropped?: string;
  /** What of the item was not sent as it was, and why (context.report.repair). */
  readonly repairs: ReadonlyArray<string>;
}

function labelled(label: string, text: string): string {
  return text.length === 0 ? label : `${label}\n${text}`;
}

export function openAIResponsesAttachmentPart(attachment: Attachment): OpenAIResponsesInputContent {
  if (attachment.type === "image") return { type: "input_image", detail: attachment.detail ?? "auto", image_url: attachment.url };
  const filename = attachment.filename === undefined ? {} : { filename: attachment.filename };
  if (attachment.data === undefined) return { type: "input_file", file_id: attachment.fileId!, ...filename };
  // OpenAI takes file data as a data: URL; stored base64 often lacks the prefix.
  const fileData = attachment.data.startsWith("data:") ? attachment.data : `data:${attachment.mediaType ?? "application/octet-stream"};base64,${attachment.data}`;
  return { type: "input_file", file_data: fileData, ...(attachment.fileId === undefined ? {} : { file_id: attachment.fileId }), ...filename };
}

/**
 * The text a list of output parts was imported as: its text parts, one per line. While a result's
 * output is still that text, nothing changed it, and the parts (images, files) go back as they were.
 */
export function outputPartsText(parts: ReadonlyArray<OpenAIResponsesVerbatimItem>): string {
  return parts
    .filter((part) => part.type === "input_text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("\n");
}

function toolResult(item: ItemOf<"tool-result">, repairs: string[]): OpenAIResponsesFunctionCallOutput {
  const stored = storedResponsesItems(openAIResponsesExtraOf(item)?.outputParts, "outputParts");
  repairs.push(...stored.problems);
  const parts = stored.items;
  if (parts !== undefined && parts.length > 0 && !item.isError && item.output === outputPartsText(parts)) {
    return { type: "function_call_output", call_id: item.callId, output: parts as OpenAIResponsesOutputContent[] };
  }
  return { type: "function_call_output", call_id: item.callId, output: item.isError ? `Error: ${item.output}` : item.output };
}

const message = (role: "user" | "system" | "developer", content: string | OpenAIResponsesInputContent[]): OpenAIResponsesInputItem => ({ type: "message", role, content });
const assistant = (text: string): OpenAIResponsesInputItem => ({ type: "message", role: "assistant", content: text });

/** The item's own input items (none when there is nothing to send) and what was changed on the way. */
function ownItems(item: Item, options: OpenAIResponsesItemOptions, repairs: string[]): ReadonlyArray<OpenAIResponsesInputItem> {
  switch (item.type) {
    case "system":
      // A blank one says nothing, and the API refuses blank messages (RSP-006).
      return isBlank(item.text) ? [] : [message(options.systemRole, item.text)];
    case "summary":
      return [message(options.systemRole, `${summaryHeading(item)}\n\n${item.text}`)];
    case "user":
      if (item.attachments === undefined || item.attachments.length === 0) return [message("user", item.text)];
      // No blank text part next to the attachments.
      return [message("user", [...(isBlank(item.text) ? [] : [{ type: "input_text" as const, text: item.text }]), ...item.attachments.map(openAIResponsesAttachmentPart)])];
    case "user-intervention":
      return [message("user", item.text)];
    case "parent-message":
      return [message("user", labelled(`Message from parent agent ${item.parentAgentId}:`, item.text))];
    case "subagent-result":
      return [message("user", labelled(`Result from subagent ${item.subagentId} (${item.success ? "succeeded" : "failed"}):`, item.text))];
    case "assistant": {
      const turn = renderOpenAIResponsesAssistantTurn(item);
      repairs.push(...turn.repairs);
      return turn.input;
    }
    case "tool-result":
      return [toolResult(item, repairs)];
    case "error":
      return isBlank(item.text) ? [] : [assistant(item.text)];
    case "subagent-spawn":
      return [assistant(labelled(`Spawned subagent ${item.subagentId}${item.agentType === undefined ? "" : ` (${item.agentType})`} with task:`, item.text))];
    case "subagent-message":
      return [assistant(labelled(`Message to subagent ${item.subagentId}:`, item.text))];
    case "todo-update":
      return [assistant(labelled(`Todo update (${item.action}):`, item.text))];
    case "task-completed":
      return [assistant(labelled("Task completed:", item.text))];
    case "task-abandoned":
      return [assistant(labelled(item.reason === undefined ? "Task abandoned:" : `Task abandoned (${item.reason}):`, item.text))];
    case "task-terminated":
      return [assistant(labelled(item.terminatedBy === undefined ? "Task terminated:" : `Task terminated by ${item.terminatedBy}:`, item.text))];
    case "thinking":
      return [];
  }
}

/** The stored items standing before or after the item, less those whose id the API would refuse (said in `repairs`). */
function standing(value: unknown, field: "before" | "after", repairs: string[]): ReadonlyArray<OpenAIResponsesVerbatimItem> {
  const stored = storedResponsesItems(value, field);
  repairs.push(...stored.problems);
  return (stored.items ?? []).filter((entry, index) => {
    const refusal = idRefusal(inputItemView(entry, 0).kind, entry.id);
    if (refusal !== undefined) repairs.push(`metadata.extra.openaiResponses.${field}[${index}] (${entry.type}) is not sent: its id ${describeValue(entry.id)} ${refusal}`);
    return refusal === undefined;
  });
}

export function renderOpenAIResponsesItem(item: Item, options: OpenAIResponsesItemOptions): RenderedOpenAIResponsesItem {
  const repairs: string[] = [];
  const extra = openAIResponsesExtraOf(item);
  const before = standing(extra?.before, "before", repairs);
  const after = standing(extra?.after, "after", repairs);
  const own = ownItems(item, options, repairs);
  const dropped = own.length > 0 ? undefined : item.type === "thinking" ? "thinking items are not sent to the OpenAI Responses API" : `the ${item.type} message is empty: nothing to send`;
  return { before, own, after, ...(dropped === undefined ? {} : { dropped }), repairs };
}
