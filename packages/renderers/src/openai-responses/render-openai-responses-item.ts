// Renders one item as the Responses input items it adds, a pure function of the item and the system role.
// Every item type is sent as the Chat Completions renderer sends it (labelled text in its role for
// subagents, todos and task outcomes; thinking left out), in the Responses shapes: messages, function
// calls and their outputs, the assistant turn's stored reasoning, and stored items of other types verbatim.
import {
  type Attachment,
  isBlank,
  type Item,
  type ItemOf,
  openAIResponsesExtraOf,
  openAIResponsesOutputText,
  openAIResponsesPartAttachment,
  summaryHeading,
} from "@ctxpipe/core";
import { describeValue, inputItemView, isBuiltInCallType } from "./openai-responses-input-view.js";
import { idRefusal } from "./openai-responses-item-rules.js";
import type {
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesInputContent,
  OpenAIResponsesInputItem,
  OpenAIResponsesOutputContent,
  OpenAIResponsesVerbatimItem,
} from "./openai-responses-request.js";
import { renderOpenAIResponsesAssistantTurn } from "./render-openai-responses-assistant-turn.js";
import { storedResponsesItems } from "./stored-responses-items.js";

export type OpenAIResponsesSystemRole = "developer" | "system";

export interface OpenAIResponsesItemOptions {
  /** The role of a system message inside the input (the leading ones are the instructions). */
  readonly systemRole: OpenAIResponsesSystemRole;
  /** false when the request says store: false: what the API would have to find in its storage is left out. */
  readonly store?: boolean;
}

/** An input item as sent: one ctxpipe writes, or a stored item of another type, verbatim. */
export type OpenAIResponsesSentItem = OpenAIResponsesInputItem | OpenAIResponsesVerbatimItem;

export interface RenderedOpenAIResponsesItem {
  /** Stored items of unknown types that stood before the item (metadata.extra.openaiResponses.before), verbatim. */
  readonly before: ReadonlyArray<OpenAIResponsesVerbatimItem>;
  /** The item's own input items; empty when it has nothing to send (then `dropped` says why). */
  readonly own: ReadonlyArray<OpenAIResponsesSentItem>;
  /** Stored items of unknown types that stood after the item (metadata.extra.openaiResponses.after), verbatim. */
  readonly after: ReadonlyArray<OpenAIResponsesVerbatimItem>;
  readonly dropped?: string;
  /** What of the item was not sent as it was, and why (context.report.repair). */
  readonly repairs: ReadonlyArray<string>;
  /** For a system item: the same when it is sent as the request's instructions, which are text. */
  readonly instructionRepairs?: ReadonlyArray<string>;
}

/** The part types a user, system or developer message and a function output take. */
const INPUT_PART_TYPES: ReadonlySet<string> = new Set(["input_text", "input_image", "input_file"]);

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

/** The stored parts the API takes in a message or an output; each other one is left out, said in `repairs`. */
function inputParts(parts: ReadonlyArray<OpenAIResponsesVerbatimItem>, where: string, repairs: string[]): OpenAIResponsesVerbatimItem[] {
  return parts.filter((part, index) => {
    if (INPUT_PART_TYPES.has(part.type)) return true;
    repairs.push(`${where}[${index}] (a ${describeValue(part.type)} part) is not sent: the Responses API takes text, image and file parts only`);
    return false;
  });
}

/**
 * The text an output's parts were imported as before images and files had markers in it: its text parts
 * alone. A stored result whose output is still that text (and says something) is unchanged too.
 */
function legacyOutputText(parts: ReadonlyArray<OpenAIResponsesVerbatimItem>): string | undefined {
  const text = parts.flatMap((part) => (part.type === "input_text" && typeof part.text === "string" ? [part.text] : [])).join("\n");
  return isBlank(text) ? undefined : text;
}

/**
 * While a result's output is still the text its parts were imported as (openAIResponsesOutputText: the
 * text parts and a marker per image or file), nothing changed it, and the parts go back as they were.
 */
function toolResult(item: ItemOf<"tool-result">, repairs: string[]): OpenAIResponsesFunctionCallOutput {
  const stored = storedResponsesItems(openAIResponsesExtraOf(item)?.outputParts, "outputParts");
  repairs.push(...stored.problems);
  const parts = stored.items;
  if (parts !== undefined && parts.length > 0 && !item.isError && (item.output === openAIResponsesOutputText(parts) || item.output === legacyOutputText(parts))) {
    const sent = inputParts(parts, "metadata.extra.openaiResponses.outputParts", repairs);
    if (sent.length > 0) return { type: "function_call_output", call_id: item.callId, output: sent as OpenAIResponsesOutputContent[] };
  }
  return { type: "function_call_output", call_id: item.callId, output: item.isError ? `Error: ${item.output}` : item.output };
}

const ATTACHMENT_FIELDS = ["type", "url", "detail", "data", "fileId", "filename", "mediaType"] as const;

function sameAttachments(left: ReadonlyArray<Attachment>, right: ReadonlyArray<Attachment>): boolean {
  return (
    left.length === right.length &&
    left.every((attachment, index) => ATTACHMENT_FIELDS.every((field) => (attachment as Record<string, unknown>)[field] === (right[index] as Record<string, unknown>)[field]))
  );
}

/**
 * The content list stored with a user or system item (metadata.extra.openaiResponses.content), when it
 * holds parts the item has no place for: `sent` while the item's text and attachments are still what
 * the list gives, else `leftOut`, the parts the item does not hold, for the report.
 */
function storedContent(item: ItemOf<"user"> | ItemOf<"system">, repairs: string[]): { sent?: OpenAIResponsesInputContent[]; leftOut: ReadonlyArray<{ index: number; type: string }> } | undefined {
  const stored = storedResponsesItems(openAIResponsesExtraOf(item)?.content, "content");
  repairs.push(...stored.problems);
  const parts = stored.items;
  if (parts === undefined) return undefined;
  const text = parts.flatMap((part) => (part.type === "input_text" && typeof part.text === "string" ? [part.text] : [])).join("\n");
  // A system item holds no attachments: its images and files are parts only the list has.
  const attachments = item.type === "user" ? parts.flatMap((part) => openAIResponsesPartAttachment(part) ?? []) : [];
  const leftOut = parts.flatMap((part, index) =>
    part.type === "input_text" || (item.type === "user" && openAIResponsesPartAttachment(part) !== undefined) ? [] : [{ index, type: part.type }],
  );
  const unchanged = item.text === text && sameAttachments(item.type === "user" ? (item.attachments ?? []) : [], attachments);
  if (!unchanged) return { leftOut };
  return { sent: inputParts(parts, "metadata.extra.openaiResponses.content", repairs) as OpenAIResponsesInputContent[], leftOut };
}

const partsLeftOut = (leftOut: ReadonlyArray<{ index: number; type: string }>, why: string): string[] =>
  leftOut.map(({ index, type }) => `its stored ${describeValue(type)} part (content[${index}]) is not sent: ${why}`);

const message = (role: "user" | "system" | "developer", content: string | OpenAIResponsesInputContent[]): OpenAIResponsesInputItem => ({ type: "message", role, content });
const CHANGED = "the message's text or attachments changed since it was stored, and the item has no place for the part";
const assistant = (text: string): OpenAIResponsesInputItem => ({ type: "message", role: "assistant", content: text });

/** The item's own input items (none when there is nothing to send) and what was changed on the way. */
function ownItems(item: Item, options: OpenAIResponsesItemOptions, repairs: string[]): ReadonlyArray<OpenAIResponsesSentItem> {
  switch (item.type) {
    case "system": {
      // A blank one says nothing, and the API refuses blank messages (RSP-006).
      if (isBlank(item.text)) return [];
      const stored = storedContent(item, repairs);
      if (stored?.sent !== undefined) return [message(options.systemRole, stored.sent)];
      if (stored !== undefined) repairs.push(...partsLeftOut(stored.leftOut, CHANGED));
      return [message(options.systemRole, item.text)];
    }
    case "summary":
      return [message(options.systemRole, `${summaryHeading(item)}\n\n${item.text}`)];
    case "user": {
      const stored = storedContent(item, repairs);
      if (stored?.sent !== undefined) return [message("user", stored.sent)];
      if (stored !== undefined) repairs.push(...partsLeftOut(stored.leftOut, CHANGED));
      if (item.attachments === undefined || item.attachments.length === 0) return [message("user", item.text)];
      // No blank text part next to the attachments.
      return [message("user", [...(isBlank(item.text) ? [] : [{ type: "input_text" as const, text: item.text }]), ...item.attachments.map(openAIResponsesAttachmentPart)])];
    }
    case "user-intervention":
      return [message("user", item.text)];
    case "parent-message":
      return [message("user", labelled(`Message from parent agent ${item.parentAgentId}:`, item.text))];
    case "subagent-result":
      return [message("user", labelled(`Result from subagent ${item.subagentId} (${item.success ? "succeeded" : "failed"}):`, item.text))];
    case "assistant": {
      const turn = renderOpenAIResponsesAssistantTurn(item, options.store === undefined ? {} : { store: options.store });
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

/**
 * The stored items standing before or after the item, less those whose id the API would refuse and a
 * reasoning item no built-in call follows in the list (the API refuses it without its follower), each
 * said in `repairs`.
 */
function standing(value: unknown, field: "before" | "after", storeless: boolean, repairs: string[]): ReadonlyArray<OpenAIResponsesVerbatimItem> {
  const stored = storedResponsesItems(value, field);
  repairs.push(...stored.problems);
  const kept = (stored.items ?? []).flatMap((entry, index) => {
    // With store: false the API keeps nothing: an item_reference points at nothing, a reasoning item without its encrypted content says nothing.
    const storelessRefusal =
      !storeless
        ? undefined
        : entry.type === "item_reference"
          ? "with store: false the API keeps no item for it to point at"
          : entry.type === "reasoning" && (typeof entry.encrypted_content !== "string" || entry.encrypted_content === "")
            ? "with store: false the API keeps nothing, and it was stored without its encrypted_content"
            : undefined;
    if (storelessRefusal !== undefined) {
      repairs.push(`metadata.extra.openaiResponses.${field}[${index}] (${entry.type}) is not sent: ${storelessRefusal}`);
      return [];
    }
    const refusal = idRefusal(inputItemView(entry, 0).kind, entry.id);
    if (refusal !== undefined) repairs.push(`metadata.extra.openaiResponses.${field}[${index}] (${entry.type}) is not sent: its id ${describeValue(entry.id)} ${refusal}`);
    return refusal === undefined ? [{ entry, index }] : [];
  });
  return kept
    .filter(({ entry, index }, position) => {
      if (entry.type !== "reasoning") return true;
      const next = kept[position + 1]?.entry;
      const followed = next !== undefined && (next.type === "reasoning" || isBuiltInCallType(next.type));
      if (!followed) repairs.push(`metadata.extra.openaiResponses.${field}[${index}] (reasoning) is not sent: no built-in tool call it led to follows it (the API refuses a reasoning item without its following item)`);
      return followed;
    })
    .map(({ entry }) => entry);
}

export function renderOpenAIResponsesItem(item: Item, options: OpenAIResponsesItemOptions): RenderedOpenAIResponsesItem {
  const repairs: string[] = [];
  const extra = openAIResponsesExtraOf(item);
  const storeless = options.store === false;
  const before = standing(extra?.before, "before", storeless, repairs);
  const after = standing(extra?.after, "after", storeless, repairs);
  const standingRepairs = repairs.slice();
  const own = ownItems(item, options, repairs);
  const dropped = own.length > 0 ? undefined : item.type === "thinking" ? "thinking items are not sent to the OpenAI Responses API" : `the ${item.type} message is empty: nothing to send`;
  // A leading system message is the request's instructions, text only: the parts its stored list has besides text are left out.
  const leftOut = item.type === "system" ? (storedContent(item, []) ?? { leftOut: [] }).leftOut : [];
  const instructionRepairs = item.type === "system" ? [...standingRepairs, ...partsLeftOut(leftOut, "the conversation's first system messages are sent as the request's instructions, which are text")] : undefined;
  return { before, own, after, ...(dropped === undefined ? {} : { dropped }), repairs, ...(instructionRepairs === undefined ? {} : { instructionRepairs }) };
}
