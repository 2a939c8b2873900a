// Renders one item as what it adds to an AI SDK ModelMessage list: the content of a user, assistant
// or tool message. An item imported from the AI SDK that still says what it said then is sent with
// the content it came with (provider options, part order and all); one that a stage changed is
// rebuilt from its fields, with what it kept in metadata.extra.aiSdk put back where it still fits.
import { isBlank, type Item, type ItemOf, summaryHeading } from "@ctxpipe/core";
import type { AssistantContent, AssistantModelMessage, ToolContent, UserContent } from "ai";
import { type AiSdkExtra, aiSdkExtraOf } from "./ai-sdk-extra.js";
import { EXECUTION_DENIED_TEXT, IGNORE_ISSUES, isRecord, readAssistantContent, readToolResultPart, readUserContent } from "./read-model-content.js";
import { toolCallInput } from "./tool-call-input.js";

export type AiSdkAssistantPart = Exclude<AssistantContent, string>[number];
export type AiSdkUserPart = Exclude<UserContent, string>[number];
export type AiSdkToolPart = ToolContent[number];
export type AiSdkProviderOptions = NonNullable<AssistantModelMessage["providerOptions"]>;

/** What one item adds to the messages: the content of one message of its role. */
export type AiSdkItemContent =
  | { readonly role: "user"; readonly content: UserContent; readonly providerOptions?: AiSdkProviderOptions }
  | { readonly role: "assistant"; readonly content: ReadonlyArray<AiSdkAssistantPart>; readonly providerOptions?: AiSdkProviderOptions }
  | { readonly role: "tool"; readonly content: ReadonlyArray<AiSdkToolPart>; readonly providerOptions?: AiSdkProviderOptions };

/** Sent when a result's output is blank: Anthropic refuses an empty tool result. */
export const NO_OUTPUT = "(the tool returned no output)";
export const NO_ERROR_OUTPUT = "(the tool failed without output)";

function labelled(label: string, text: string): string {
  return text.length === 0 ? label : `${label}\n${text}`;
}

function providerOptionsOf(extra: AiSdkExtra): { providerOptions?: AiSdkProviderOptions } {
  return isRecord(extra.providerOptions) ? { providerOptions: extra.providerOptions as AiSdkProviderOptions } : {};
}

function userText(text: string): AiSdkItemContent | undefined {
  return isBlank(text) ? undefined : { role: "user", content: text };
}

function assistantText(text: string): AiSdkItemContent | undefined {
  return isBlank(text) ? undefined : { role: "assistant", content: [{ type: "text", text }] };
}

/** A system-role item's text, for the request's `system` or a user-side message. */
export function aiSdkSystemText(item: ItemOf<"system"> | ItemOf<"summary">): string {
  if (isBlank(item.text)) return "";
  return item.type === "summary" ? `${summaryHeading(item)}\n\n${item.text}` : item.text;
}

/**
 * What the item adds, or undefined when it has nothing to send. `toolNameOf` gives the name of the
 * call a result answers, for results that do not carry one (ctxpipe's synthesized answers).
 */
export function renderAiSdkItem(item: Item, toolNameOf: (callId: string) => string | undefined): AiSdkItemContent | undefined {
  switch (item.type) {
    case "system":
      // Inside the conversation, when it is not moved into the system prompt: user-side, labelled.
      return userText(isBlank(item.text) ? "" : `[System message]\n${item.text}`);
    case "summary":
      return userText(aiSdkSystemText(item));
    case "user":
      return renderUser(item);
    case "user-intervention":
      return userText(item.text);
    case "parent-message":
      return userText(labelled(`Message from parent agent ${item.parentAgentId}:`, item.text));
    case "subagent-result":
      return userText(labelled(`Result from subagent ${item.subagentId} (${item.success ? "succeeded" : "failed"}):`, item.text));
    case "tool-result":
      return renderToolResult(item, toolNameOf);
    case "assistant":
      return renderAssistant(item);
    case "error":
      return assistantText(item.text);
    case "subagent-spawn":
      return assistantText(labelled(`Spawned subagent ${item.subagentId}${item.agentType === undefined ? "" : ` (${item.agentType})`} with task:`, item.text));
    case "subagent-message":
      return assistantText(labelled(`Message to subagent ${item.subagentId}:`, item.text));
    case "todo-update":
      return assistantText(labelled(`Todo update (${item.action}):`, item.text));
    case "task-completed":
      return assistantText(labelled("Task completed:", item.text));
    case "task-abandoned":
      return assistantText(labelled(item.reason === undefined ? "Task abandoned:" : `Task abandoned (${item.reason}):`, item.text));
    case "task-terminated":
      return assistantText(labelled(item.terminatedBy === undefined ? "Task terminated:" : `Task terminated by ${item.terminatedBy}:`, item.text));
    case "thinking":
      // Reasoning goes back only on the assistant message that produced it, as its reasoning parts.
      return undefined;
  }
}

/** Deep equality of JSON-like values, whatever the order of their keys (zod's parse reorders them). */
function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left).filter((key) => (left as Record<string, unknown>)[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => (right as Record<string, unknown>)[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => sameValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]));
}

/**
 * Imported content as it was, but for its text: the item's text in one part, where the first text
 * part was (with that part's provider options), or before the calls when there was none. The item
 * joins a message's text parts, and may have been given other text by a stage; blank text parts
 * and text made only of invisible characters are left out, since providers refuse them.
 */
function withTextMerged<Part>(content: ReadonlyArray<Part>, text: string): Part[] {
  const parts: Part[] = [];
  let placed = false;
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part.type === "text") {
      if (!placed && !isBlank(text)) parts.push(part.text === text ? part : ({ ...part, text } as Part));
      placed = true;
    } else if (!(part.type === "reasoning" && typeof part.text === "string" && part.text.length > 0 && isBlank(part.text))) parts.push(part);
  }
  if (!placed && !isBlank(text)) {
    const at = parts.findIndex((part) => isRecord(part) && (part.type === "tool-call" || part.type === "tool-result"));
    parts.splice(at === -1 ? parts.length : at, 0, { type: "text", text } as Part);
  }
  return parts;
}

function renderUser(item: ItemOf<"user">): AiSdkItemContent | undefined {
  const extra = aiSdkExtraOf(item);
  const attachments = item.attachments ?? [];
  // While its attachments are the ones imported, the content goes back as it came, with the item's text.
  if (Array.isArray(extra.content) && extra.content.length > 0 && sameValue(readUserContent(extra.content, [], IGNORE_ISSUES).attachments, attachments)) {
    const parts = withTextMerged(extra.content as AiSdkUserPart[], item.text);
    return parts.length === 0 ? undefined : { role: "user", content: parts, ...providerOptionsOf(extra) };
  }
  const parts: AiSdkUserPart[] = attachments.map(attachmentPart);
  for (const part of extra.parts ?? []) parts.push(part as AiSdkUserPart);
  if (!isBlank(item.text)) parts.push({ type: "text", text: item.text });
  if (parts.length === 0) return undefined;
  const only = parts[0];
  const content: UserContent = parts.length === 1 && only?.type === "text" && only.providerOptions === undefined ? only.text : parts;
  return { role: "user", content, ...providerOptionsOf(extra) };
}

type Attachment = NonNullable<ItemOf<"user">["attachments"]>[number];

/**
 * An attachment as a file part. The media type of an image by URL is not known: "image/*" says so
 * (AI SDK 7 reads it as "image"; ai 6's providers look for an "image/" prefix).
 */
function attachmentPart(attachment: Attachment): AiSdkUserPart {
  if (attachment.type === "image") {
    const mediaType = /^data:([^;,]+)/.exec(attachment.url)?.[1] ?? "image/*";
    return { type: "file", mediaType, data: attachment.url };
  }
  const mediaType = attachment.mediaType ?? /^data:([^;,]+)/.exec(attachment.data ?? "")?.[1] ?? "application/octet-stream";
  const filename = attachment.filename === undefined ? {} : { filename: attachment.filename };
  if (attachment.data !== undefined) return { type: "file", mediaType, data: attachment.data, ...filename };
  // A provider file id without its provider: the AI SDK's reference names the provider, so it is sent
  // as the id under every provider name a reader could look it up by.
  return { type: "file", mediaType, data: { type: "reference", reference: { openai: attachment.fileId ?? "", anthropic: attachment.fileId ?? "" } }, ...filename };
}

/** Whether the item still has the calls and reasoning it was imported with (its text may differ). */
function sameCallsAndReasoning(item: ItemOf<"assistant">, read: ReturnType<typeof readAssistantContent>): boolean {
  if (read.toolCalls.length !== item.toolCalls.length) return false;
  for (let index = 0; index < read.toolCalls.length; index++) {
    const call = item.toolCalls[index];
    const before = read.toolCalls[index];
    if (call === undefined || before === undefined || call.id !== before.id || call.name !== before.name || call.arguments !== before.arguments) return false;
  }
  const reasoning = item.reasoning ?? [];
  return read.reasoning.length === reasoning.length && read.reasoning.every((entry, index) => entry.text === reasoning[index]?.text);
}

function renderAssistant(item: ItemOf<"assistant">): AiSdkItemContent | undefined {
  const extra = aiSdkExtraOf(item);
  // An empty assistant item that carries a tool message's approval responses (see importModelMessages).
  if (extra.approvalResponses !== undefined && item.toolCalls.length === 0 && isBlank(item.text)) {
    return extra.approvalResponses.length === 0 ? undefined : { role: "tool", content: extra.approvalResponses as AiSdkToolPart[], ...providerOptionsOf(extra) };
  }
  const original = Array.isArray(extra.content) ? (extra.content as ReadonlyArray<AiSdkAssistantPart>) : [];
  // While its calls and reasoning are the ones imported, the content goes back as it came, with the item's text.
  if (original.length > 0 && sameCallsAndReasoning(item, readAssistantContent(original, [], IGNORE_ISSUES))) {
    const parts = withTextMerged(original, item.text);
    return parts.some((part) => part.type !== "reasoning") ? { role: "assistant", content: parts, ...providerOptionsOf(extra) } : undefined;
  }
  const parts: AiSdkAssistantPart[] = [];
  // Reasoning first, as the model produced it; provider options come back from the part it was read from.
  const originalReasoning = original.filter((part) => part.type === "reasoning");
  (item.reasoning ?? []).forEach((entry, index) => {
    // Reasoning made only of invisible characters says nothing; providers refuse blank text.
    if (entry.redacted !== true && isBlank(entry.text)) return;
    const before = originalReasoning[index];
    if (before !== undefined && readAssistantContent([before], [], IGNORE_ISSUES).reasoning[0]?.text === entry.text) parts.push(before);
    else if (entry.redacted === true) parts.push({ type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: entry.text } } });
    else parts.push({ type: "reasoning", text: entry.text, ...(entry.signature === undefined ? {} : { providerOptions: { anthropic: { signature: entry.signature } } }) });
  });
  if (!isBlank(item.text)) parts.push({ type: "text", text: item.text });
  const callIds = new Set<string>();
  for (const call of item.toolCalls) {
    callIds.add(call.id);
    const before = original.find((part) => part.type === "tool-call" && part.toolCallId === call.id && part.toolName === call.name);
    const providerOptions = before?.type === "tool-call" && before.providerOptions !== undefined ? { providerOptions: before.providerOptions } : {};
    parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: toolCallInput(call.arguments), ...providerOptions });
  }
  for (const part of extra.parts ?? []) {
    if (!isRecord(part)) continue;
    if (part.type === "tool-call" && typeof part.toolCallId === "string") callIds.add(part.toolCallId);
    // An approval request for a call no longer sent would point at nothing.
    if (part.type === "tool-approval-request" && !callIds.has(String(part.toolCallId))) continue;
    parts.push(part as AiSdkAssistantPart);
  }
  // Reasoning alone is no message a provider takes.
  if (!parts.some((part) => part.type !== "reasoning")) return undefined;
  return { role: "assistant", content: parts, ...providerOptionsOf(extra) };
}

function renderToolResult(item: ItemOf<"tool-result">, toolNameOf: (callId: string) => string | undefined): AiSdkItemContent {
  const extra = aiSdkExtraOf(item);
  const original = isRecord(extra.part) ? extra.part : undefined;
  const responses = (extra.approvalResponses ?? []) as AiSdkToolPart[];
  const toolName = toolNameOf(item.callId) ?? item.toolName ?? "unknown_tool";
  if (original !== undefined && !isBlank(item.output)) {
    const read = readToolResultPart(original, [], IGNORE_ISSUES);
    if (read !== undefined && read.callId === item.callId && read.output === item.output && read.isError === item.isError && read.toolName === toolName) {
      return { role: "tool", content: [original as AiSdkToolPart, ...responses], ...providerOptionsOf(extra) };
    }
  }
  const outputType = isRecord(original?.output) ? original.output.type : undefined;
  const providerOptions = isRecord(original?.providerOptions) ? { providerOptions: original.providerOptions as AiSdkProviderOptions } : {};
  const part = { type: "tool-result" as const, toolCallId: item.callId, toolName, output: toolOutput(item, outputType), ...providerOptions };
  return { role: "tool", content: [part, ...responses], ...providerOptionsOf(extra) };
}

type ToolOutput = Extract<AiSdkToolPart, { type: "tool-result" }>["output"];

/** The output in the type it was imported with, when the item's output still fits that type. */
function toolOutput(item: ItemOf<"tool-result">, outputType: unknown): ToolOutput {
  const text = isBlank(item.output) ? (item.isError ? NO_ERROR_OUTPUT : NO_OUTPUT) : item.output;
  if (outputType === "execution-denied" && !item.isError) return item.output === EXECUTION_DENIED_TEXT ? { type: "execution-denied" } : { type: "execution-denied", reason: text };
  if ((outputType === "json" || outputType === "error-json") && !isBlank(item.output)) {
    try {
      const value = JSON.parse(item.output);
      return item.isError ? { type: "error-json", value } : { type: "json", value };
    } catch {
      // Cut or cleared by compression: no longer JSON, so sent as text below.
    }
  }
  return item.isError ? { type: "error-text", value: text } : { type: "text", value: text };
}
