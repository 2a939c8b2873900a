// The OpenAI Chat Completions shape of a LangChain message, as @langchain/openai sends it (roles, tool
// calls with their args as JSON text), without any repair. The token count uses it, and so can a test
// that checks a request against core's openAIChatRules.
import type { OpenAIChatContentPart, OpenAIChatMessage } from "@ctxpipe/core";
import { langChainMessageType } from "../messages/langchain-message-type.js";

type Block = Record<string, unknown>;

function part(block: unknown): OpenAIChatContentPart {
  if (typeof block === "string") return { type: "text", text: block };
  const value = block as Block;
  if (value.type === "text" && typeof value.text === "string") return { type: "text", text: value.text };
  if (value.type === "image_url") return value as unknown as OpenAIChatContentPart;
  if (value.type === "image" && typeof value.url === "string") return { type: "image_url", image_url: { url: value.url } };
  // Anything else is counted by its JSON (core's formula does so for parts it does not know).
  return value as unknown as OpenAIChatContentPart;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) => (typeof block === "string" ? block : (block as Block)?.type === "text" ? String((block as Block).text) : ""))
    .filter((text) => text.length > 0)
    .join("\n");
}

function roleOf(type: string, message: object): OpenAIChatMessage["role"] | string {
  if (type === "human") return "user";
  if (type === "ai") return "assistant";
  if (type === "generic") return String((message as { role?: unknown }).role);
  return type;
}

export function toOpenAIChatMessage(message: object): OpenAIChatMessage {
  const kind = langChainMessageType(message);
  const type = "known" in kind ? kind.known : String(kind.unknown);
  const role = roleOf(type, message);
  const source = message as { content?: unknown; tool_calls?: unknown; tool_call_id?: unknown; name?: unknown };
  const content = source.content;
  if (role === "tool") return { role: "tool", tool_call_id: String(source.tool_call_id), content: textOf(content) };
  if (role === "assistant") {
    const calls = Array.isArray(source.tool_calls) ? (source.tool_calls as Block[]) : [];
    const text = textOf(content);
    return {
      role: "assistant",
      content: text.length === 0 && calls.length > 0 ? null : text,
      ...(calls.length === 0
        ? {}
        : { tool_calls: calls.map((call) => ({ id: String(call.id ?? ""), type: "function" as const, function: { name: String(call.name), arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}) } })) }),
    };
  }
  const parts = typeof content === "string" ? content : Array.isArray(content) ? content.map(part) : "";
  const name = typeof source.name === "string" && source.name.length > 0 ? { name: source.name } : {};
  if (role === "user") return { role: "user", content: parts, ...name };
  // System (and any other role, which the rules report) as text.
  return { role: role as "system", content: typeof parts === "string" ? parts : textOf(content), ...name };
}
