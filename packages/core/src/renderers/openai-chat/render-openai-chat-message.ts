// Renders one item as one OpenAI Chat Completions message. Item types that have no chat equivalent
// (subagents, todos, task outcomes) become text in the role their memory chunks give them, with a
// short label so the model can tell them apart; thinking has no place in a Chat Completions request,
// nor has an assistant message with nothing in it.
import type { Attachment } from "../../model/attachment.js";
import { isBlank } from "../../model/is-blank.js";
import type { Item } from "../../model/item.js";
import type { OpenAIChatContentPart, OpenAIChatMessage } from "./openai-chat-request.js";

export interface OpenAIChatMessageOptions {
  readonly systemRole: "system" | "developer";
}

function attachmentPart(attachment: Attachment): OpenAIChatContentPart {
  if (attachment.type === "image") {
    return { type: "image_url", image_url: attachment.detail === undefined ? { url: attachment.url } : { url: attachment.url, detail: attachment.detail } };
  }
  const file: { file_data?: string; file_id?: string; filename?: string } = {};
  // OpenAI takes file data as a data: URL; stored base64 often lacks the prefix.
  if (attachment.data !== undefined) {
    file.file_data = attachment.data.startsWith("data:") ? attachment.data : `data:${attachment.mediaType ?? "application/octet-stream"};base64,${attachment.data}`;
  }
  if (attachment.fileId !== undefined) file.file_id = attachment.fileId;
  if (attachment.filename !== undefined) file.filename = attachment.filename;
  return { type: "file", file };
}

export function summaryHeading(item: Extract<Item, { type: "summary" }>): string {
  const count = item.coveredIds.length > 0 ? item.coveredIds.length : item.originalCount;
  return count === undefined ? "[Previous conversation summary]" : `[Previous conversation summary (${count} messages compressed)]`;
}

function labelled(label: string, text: string): string {
  return text.length === 0 ? label : `${label}\n${text}`;
}

/** The message for an item, or undefined when the item cannot be sent to Chat Completions. */
export function renderOpenAIChatMessage(item: Item, options: OpenAIChatMessageOptions): OpenAIChatMessage | undefined {
  switch (item.type) {
    case "system":
      // Anywhere in the conversation: Chat Completions takes system messages at any position. A blank
      // one says nothing, and compatible servers refuse it (OAI-012).
      return isBlank(item.text) ? undefined : { role: options.systemRole, content: item.text };
    case "summary":
      return { role: options.systemRole, content: `${summaryHeading(item)}\n\n${item.text}` };
    case "user":
      if (item.attachments === undefined || item.attachments.length === 0) return { role: "user", content: item.text };
      // No blank text part next to the attachments: compatible servers reject one (OAI-012).
      return { role: "user", content: [...(isBlank(item.text) ? [] : [{ type: "text" as const, text: item.text }]), ...item.attachments.map(attachmentPart)] };
    case "user-intervention":
      return { role: "user", content: item.text };
    case "parent-message":
      return { role: "user", content: labelled(`Message from parent agent ${item.parentAgentId}:`, item.text) };
    case "subagent-result":
      return { role: "user", content: labelled(`Result from subagent ${item.subagentId} (${item.success ? "succeeded" : "failed"}):`, item.text) };
    case "assistant": {
      // A blank message without calls says nothing, and many servers reject it (OAI-011).
      if (item.toolCalls.length === 0) return isBlank(item.text) ? undefined : { role: "assistant", content: item.text };
      return {
        role: "assistant",
        // Null rather than blank text when the message only makes calls (OAI-021). Never `tool_calls: []` (OAI-006).
        content: isBlank(item.text) ? null : item.text,
        tool_calls: item.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
      };
    }
    case "tool-result":
      return { role: "tool", tool_call_id: item.callId, content: item.isError ? `Error: ${item.output}` : item.output };
    case "error":
      return isBlank(item.text) ? undefined : { role: "assistant", content: item.text };
    case "subagent-spawn":
      return { role: "assistant", content: labelled(`Spawned subagent ${item.subagentId}${item.agentType === undefined ? "" : ` (${item.agentType})`} with task:`, item.text) };
    case "subagent-message":
      return { role: "assistant", content: labelled(`Message to subagent ${item.subagentId}:`, item.text) };
    case "todo-update":
      return { role: "assistant", content: labelled(`Todo update (${item.action}):`, item.text) };
    case "task-completed":
      return { role: "assistant", content: labelled("Task completed:", item.text) };
    case "task-abandoned":
      return { role: "assistant", content: labelled(item.reason === undefined ? "Task abandoned:" : `Task abandoned (${item.reason}):`, item.text) };
    case "task-terminated":
      return { role: "assistant", content: labelled(item.terminatedBy === undefined ? "Task terminated:" : `Task terminated by ${item.terminatedBy}:`, item.text) };
    case "thinking":
      return undefined;
  }
}
