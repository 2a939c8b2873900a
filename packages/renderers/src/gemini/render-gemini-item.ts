// Renders one conversation item as the parts of a Gemini content and the role they go in. Item types
// Gemini has no equivalent for (subagents, todos, task outcomes) become text with a short label, in
// the role their item has; system-role items rendered here are the ones inside the conversation,
// which Gemini can only take as user-side text. Thinking is not sent.
import { isBlank, type Item, type ToolCall, summaryHeading } from "@ctxpipe/core";
import { geminiAttachmentPart } from "./gemini-attachment-part.js";
import type { GeminiFunctionCallPart, GeminiPart } from "./gemini-request.js";
import { SKIP_THOUGHT_SIGNATURE_VALIDATOR } from "./gemini-thought-signatures.js";

export interface GeminiItemContext {
  /** Whether calls stored without a signature get the skip sentinel (GEM-018). */
  readonly signUnsignedCalls: boolean;
  /** The name of the call a result answers, from the call itself. */
  readonly callName: (callId: string) => string | undefined;
}

export interface RenderedGeminiItem {
  readonly role: "user" | "model";
  /** Empty when the item has nothing a model could read (blank text, no attachments, no calls). */
  readonly parts: GeminiPart[];
  /** A tool result: its part goes in a content of function responses only (GEM-021). */
  readonly functionResponse: boolean;
}

/** The text a system-role item contributes, in the system instruction or in the conversation. */
export function systemRoleText(item: Extract<Item, { role: "system" }>): string {
  return item.type === "summary" ? `${summaryHeading(item)}\n\n${item.text}` : item.text;
}

function labelled(label: string, text: string): string {
  return isBlank(text) ? label : `${label}\n${text}`;
}

function textParts(text: string): GeminiPart[] {
  return isBlank(text) ? [] : [{ text }];
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Gemini takes arguments as an object: "" becomes {}, anything that is not a JSON object is kept as _raw. */
export function geminiFunctionArgs(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isJsonObject(parsed)) return parsed;
  } catch {
    // not JSON: kept as text below
  }
  return { _raw: text };
}

function functionCallPart(call: ToolCall, context: GeminiItemContext): GeminiFunctionCallPart {
  const part: GeminiFunctionCallPart = { functionCall: { id: call.id, name: call.name, args: geminiFunctionArgs(call.arguments) } };
  const signature = call.signature !== undefined && call.signature.length > 0 ? call.signature : undefined;
  if (signature !== undefined) part.thoughtSignature = signature;
  else if (context.signUnsignedCalls) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE_VALIDATOR;
  return part;
}

const user = (parts: GeminiPart[]): RenderedGeminiItem => ({ role: "user", parts, functionResponse: false });
const model = (parts: GeminiPart[]): RenderedGeminiItem => ({ role: "model", parts, functionResponse: false });

/** The rendering of an item, or undefined for item types that are never sent (thinking). */
export function renderGeminiItem(item: Item, context: GeminiItemContext): RenderedGeminiItem | undefined {
  switch (item.type) {
    case "system":
      // Bracketed like the summary heading, and as the Anthropic renderer labels it.
      return user(isBlank(item.text) ? [] : [{ text: `[System message]\n${item.text}` }]);
    case "summary":
      return user(isBlank(item.text) ? [] : [{ text: systemRoleText(item) }]);
    case "user":
      return user([...textParts(item.text), ...(item.attachments ?? []).map(geminiAttachmentPart)]);
    case "user-intervention":
      return user(textParts(item.text));
    case "parent-message":
      return user([{ text: labelled(`Message from parent agent ${item.parentAgentId}:`, item.text) }]);
    case "subagent-result":
      return user([{ text: labelled(`Result from subagent ${item.subagentId} (${item.success ? "succeeded" : "failed"}):`, item.text) }]);
    case "assistant":
      // Reasoning is not replayed: Gemini keeps its reasoning state in the calls' thought signatures.
      return model([...textParts(item.text), ...item.toolCalls.map((call) => functionCallPart(call, context))]);
    case "tool-result":
      return {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: item.callId,
              name: context.callName(item.callId) ?? item.toolName ?? "",
              // js-genai documents "output" for a result and "error" for a failure.
              response: item.isError ? { error: item.output } : { output: item.output },
            },
          },
        ],
        functionResponse: true,
      };
    case "error":
      return model(textParts(item.text));
    case "subagent-spawn":
      return model([{ text: labelled(`Spawned subagent ${item.subagentId}${item.agentType === undefined ? "" : ` (${item.agentType})`} with task:`, item.text) }]);
    case "subagent-message":
      return model([{ text: labelled(`Message to subagent ${item.subagentId}:`, item.text) }]);
    case "todo-update":
      return model([{ text: labelled(`Todo update (${item.action}):`, item.text) }]);
    case "task-completed":
      return model([{ text: labelled("Task completed:", item.text) }]);
    case "task-abandoned":
      return model([{ text: labelled(item.reason === undefined ? "Task abandoned:" : `Task abandoned (${item.reason}):`, item.text) }]);
    case "task-terminated":
      return model([{ text: labelled(item.terminatedBy === undefined ? "Task terminated:" : `Task terminated by ${item.terminatedBy}:`, item.text) }]);
    case "thinking":
      return undefined;
  }
}
