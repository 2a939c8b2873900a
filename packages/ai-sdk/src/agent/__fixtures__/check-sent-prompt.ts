// A strict check of what a model receives, for the tests: the pairing rules every provider enforces,
// checked on the provider-level prompt itself, then the same prompt converted without any repair the
// way @ai-sdk/openai and @ai-sdk/anthropic send it, and run through ctxpipe's OpenAI Chat and
// Anthropic Messages rule tables.
import { checkRules, type OpenAIChatContentPart, type OpenAIChatMessage, type OpenAIChatRequest, openAIChatRules } from "@ctxpipe/core";
import { type AnthropicMessage, type AnthropicMessagesRequest, anthropicMessagesRules } from "@ctxpipe/renderers";
import type { ProviderMessage, ProviderPrompt } from "../provider-prompt.js";

type Part = Record<string, unknown>;

function partsOf(message: ProviderMessage): Part[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as unknown as Part[]);
}

const isCall = (part: Part) => part.type === "tool-call" && part.providerExecuted !== true;

/** The text a tool result carries, as the OpenAI and Anthropic providers send it. */
function outputText(output: unknown): string {
  const value = output as Part;
  switch (value.type) {
    case "text":
    case "error-text":
      return String(value.value);
    case "json":
    case "error-json":
      return JSON.stringify(value.value);
    case "execution-denied":
      return String(value.reason ?? "Tool execution denied.");
    case "content":
      return (value.value as Part[]).map((item) => (item.type === "text" ? String(item.text) : "")).join("");
    default:
      return JSON.stringify(value);
  }
}

/**
 * Problems with a prompt, in words; empty when every provider would take it. Every tool call is
 * answered by a result of the same id in the message right after it, no result lacks its call in the
 * message right before, no call id repeats, no message is empty or blank.
 */
export function pairingProblems(prompt: ProviderPrompt): string[] {
  const problems: string[] = [];
  const seenCalls = new Set<string>();
  const answered = new Set<string>();
  prompt.forEach((message, index) => {
    const parts = partsOf(message);
    if (parts.length === 0) problems.push(`messages[${index}] (${message.role}) has no content`);
    if (message.role !== "tool" && parts.every((part) => part.type === "text" && String(part.text).trim() === "")) {
      problems.push(`messages[${index}] (${message.role}) is blank`);
    }
    if (message.role === "assistant") {
      const next = prompt[index + 1];
      const results = new Set(next?.role === "tool" ? partsOf(next).flatMap((part) => (part.type === "tool-result" ? [String(part.toolCallId)] : [])) : []);
      for (const call of parts.filter(isCall)) {
        const id = String(call.toolCallId);
        if (seenCalls.has(id)) problems.push(`messages[${index}]: call id "${id}" is used twice`);
        seenCalls.add(id);
        if (!results.has(id)) problems.push(`messages[${index}]: call "${id}" is not answered in the message right after it`);
      }
    }
    if (message.role === "tool") {
      const previous = prompt[index - 1];
      const calls = new Set(previous?.role === "assistant" ? partsOf(previous).filter(isCall).map((part) => String(part.toolCallId)) : []);
      for (const result of parts.filter((part) => part.type === "tool-result")) {
        const id = String(result.toolCallId);
        if (!calls.has(id)) problems.push(`messages[${index}]: result "${id}" answers no call of the message right before it`);
        if (answered.has(id)) problems.push(`messages[${index}]: call "${id}" is answered twice`);
        answered.add(id);
      }
    }
  });
  return problems;
}

/** A file part's data as text: a URL, or base64 (v4 wraps it in { type: "data" | "url" }, v3 does not). */
function fileUrl(part: Part): string {
  const raw = part.data as unknown;
  const data = typeof raw === "object" && raw !== null && !(raw instanceof URL) && "type" in raw ? ((raw as Part).data ?? (raw as Part).url) : raw;
  if (data instanceof URL) return data.href;
  const base64 = typeof data === "string" ? data : Buffer.from(data as Uint8Array).toString("base64");
  return `data:${String(part.mediaType)};base64,${base64}`;
}

function openAIUserPart(part: Part): OpenAIChatContentPart {
  if (part.type === "text") return { type: "text", text: String(part.text) };
  if (String(part.mediaType).startsWith("image")) return { type: "image_url", image_url: { url: fileUrl(part) } };
  return { type: "file", file: { file_data: fileUrl(part) } };
}

/** The prompt as @ai-sdk/openai sends it to Chat Completions: no merging, no repair. */
export function asOpenAIChat(prompt: ProviderPrompt): OpenAIChatRequest {
  const messages: OpenAIChatMessage[] = [];
  for (const message of prompt) {
    const parts = partsOf(message);
    const text = parts.flatMap((part) => (part.type === "text" ? [String(part.text)] : [])).join("");
    if (message.role === "system") messages.push({ role: "system", content: String(message.content) });
    else if (message.role === "user") messages.push({ role: "user", content: parts.map(openAIUserPart) });
    else if (message.role === "assistant") {
      const calls = parts.filter(isCall).map((part) => ({
        id: String(part.toolCallId),
        type: "function" as const,
        function: { name: String(part.toolName), arguments: JSON.stringify(part.input) },
      }));
      messages.push({ role: "assistant", content: calls.length > 0 && text === "" ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    } else {
      for (const part of parts) {
        if (part.type === "tool-result") messages.push({ role: "tool", tool_call_id: String(part.toolCallId), content: outputText(part.output) });
      }
    }
  }
  return { model: "gpt-4o", messages };
}

/** The prompt as @ai-sdk/anthropic sends it: system on top, neighbours of one side merged, tool results in user turns. */
export function asAnthropicMessages(prompt: ProviderPrompt): AnthropicMessagesRequest {
  const system = prompt.flatMap((message) => (message.role === "system" ? [String(message.content)] : [])).join("\n\n");
  const messages: AnthropicMessage[] = [];
  for (const message of prompt) {
    if (message.role === "system") continue;
    const side = message.role === "assistant" ? "assistant" : "user";
    const blocks = partsOf(message).flatMap((part): Part[] => {
      if (part.type === "text") return [{ type: "text", text: String(part.text) }];
      if (part.type === "file" && String(part.mediaType).startsWith("image/")) {
        const [, mediaType, data] = /^data:([^;]+);base64,(.*)$/.exec(fileUrl(part)) ?? [];
        return [{ type: "image", source: { type: "base64", media_type: mediaType, data } }];
      }
      if (isCall(part)) return [{ type: "tool_use", id: String(part.toolCallId), name: String(part.toolName), input: part.input }];
      if (part.type === "tool-result") {
        const output = part.output as Part;
        const isError = output.type === "error-text" || output.type === "error-json";
        return [{ type: "tool_result", tool_use_id: String(part.toolCallId), content: outputText(output), ...(isError ? { is_error: true } : {}) }];
      }
      return [];
    });
    const last = messages.at(-1);
    if (last?.role === side) (last.content as unknown as Part[]).push(...blocks);
    else messages.push({ role: side, content: blocks } as unknown as AnthropicMessage);
  }
  return { model: "claude-sonnet-4-5", max_tokens: 1024, ...(system === "" ? {} : { system }), messages };
}

/** Every problem of a received prompt: pairing, then each provider's rules (errors and strict ones). */
export function sentPromptProblems(prompt: ProviderPrompt): string[] {
  const openAI = checkRules(openAIChatRules, asOpenAIChat(prompt), { model: "gpt-4o" });
  const anthropic = checkRules(anthropicMessagesRules, asAnthropicMessages(prompt), { model: "claude-sonnet-4-5" });
  return [...pairingProblems(prompt), ...openAI.map((issue) => `OpenAI ${issue.rule}: ${issue.message}`), ...anthropic.map((issue) => `Anthropic ${issue.rule}: ${issue.message}`)];
}
