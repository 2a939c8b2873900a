// Renders one item as one LangChain message. A message imported from LangChain comes back as it was
// stored (its content blocks, ids and metadata) as long as the pipeline left its text alone; what
// the pipeline changed (a cut tool result, a repaired call) is rendered from the item. Item types
// LangChain has no message for (subagents, todos, task outcomes) become labelled text, as core's
// OpenAI renderer gives them.
import { type Attachment, isBlank, type Item, type ItemOf, renderOpenAIChatMessage, summaryHeading } from "@ctxpipe/core";
import { AIMessage, type BaseMessage, type ContentBlock, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { type LangChainExtra, langChainExtraOf } from "../messages/langchain-extra.js";
import { readLangChainContent } from "../messages/read-langchain-content.js";

/** The message, or why the item gives none; `repaired` says what rendering had to change. */
export type RenderedItem = { readonly message: BaseMessage; readonly repaired?: string } | { readonly reason: string };

type Block = Record<string, unknown>;
/** LangChain's content type; the blocks kept are what LangChain gave the importer. */
type Content = string | ContentBlock[];

function attachmentBlock(attachment: Attachment): Block {
  if (attachment.type === "image") return { type: "image_url", image_url: attachment.detail === undefined ? { url: attachment.url } : { url: attachment.url, detail: attachment.detail } };
  // The v1 standard file block, which every LangChain provider package translates.
  return {
    type: "file",
    ...(attachment.data === undefined ? {} : { data: attachment.data.replace(/^data:[^,]*;base64,/, "") }),
    ...(attachment.fileId === undefined ? {} : { fileId: attachment.fileId }),
    mimeType: attachment.mediaType ?? /^data:([^;,]+)/.exec(attachment.data ?? "")?.[1] ?? "application/octet-stream",
    ...(attachment.filename === undefined ? {} : { metadata: { filename: attachment.filename } }),
  };
}

/** The stored blocks when they still say what the item says; undefined when the item's text changed. */
function keptContent(item: Item, extra: LangChainExtra | undefined): Block[] | undefined {
  if (extra?.content === undefined) return undefined;
  const reread = readLangChainContent(extra.content, { attachments: item.type === "user", reasoning: item.type === "assistant" }, () => {});
  const text = "text" in item ? item.text : item.type === "tool-result" ? item.output : undefined;
  if (reread.text !== text) return undefined;
  if (item.type === "user" && reread.attachments.length !== (item.attachments?.length ?? 0)) return undefined;
  const calls = item.type === "assistant" ? new Set(item.toolCalls.map((call) => call.id)) : new Set<string>();
  // A tool_use block copies a call of tool_calls; one whose call repair removed must go with it.
  return (extra.content as Block[]).filter((block) => typeof block !== "object" || block === null || !((block.type === "tool_use" || block.type === "tool_call") && !calls.has(String(block.id))));
}

/** additional_kwargs without the raw provider calls: tool_calls is what is sent, and a raw copy would resend calls repair removed. */
function keptKwargs(extra: LangChainExtra | undefined): Record<string, unknown> | undefined {
  if (extra?.additional_kwargs === undefined) return undefined;
  const { tool_calls: _calls, function_call: _call, ...rest } = extra.additional_kwargs;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

function common(item: Item, extra: LangChainExtra | undefined): { id?: string; name?: string; additional_kwargs?: Record<string, unknown>; response_metadata?: Record<string, unknown> } {
  const kwargs = keptKwargs(extra);
  return {
    ...(extra?.idFromPosition === true ? {} : { id: item.id }),
    ...(extra?.name === undefined ? {} : { name: extra.name }),
    ...(kwargs === undefined ? {} : { additional_kwargs: kwargs }),
    ...(extra?.response_metadata === undefined ? {} : { response_metadata: extra.response_metadata }),
  };
}

function parseArgs(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function renderAssistant(item: ItemOf<"assistant">, extra: LangChainExtra | undefined): RenderedItem {
  const kept = keptContent(item, extra);
  if (item.toolCalls.length === 0 && isBlank(item.text) && kept === undefined) return { reason: "the assistant message is empty: nothing to send" };
  const broken: string[] = [];
  const toolCalls = item.toolCalls.map((call) => {
    let args = parseArgs(call.arguments);
    if (args === undefined) {
      broken.push(call.id);
      args = {};
    }
    return { id: call.id, name: call.name, args, type: "tool_call" as const };
  });
  const message = new AIMessage({
    content: (kept ?? item.text) as Content,
    tool_calls: toolCalls,
    ...common(item, extra),
    ...(extra?.usage_metadata === undefined ? {} : { usage_metadata: extra.usage_metadata as never }),
  });
  if (broken.length === 0) return { message };
  return { message, repaired: `tool call arguments that are not a JSON object sent as {} (LangChain's tool_calls take an object): ${broken.join(", ")}` };
}

function renderTool(item: ItemOf<"tool-result">, extra: LangChainExtra | undefined): RenderedItem {
  const kept = keptContent(item, extra);
  return {
    message: new ToolMessage({
      content: (kept ?? item.output) as Content,
      tool_call_id: item.callId,
      // Left unset as the stored message left it: LangChain reads no status as success.
      ...(item.isError ? { status: "error" as const } : extra?.status === undefined ? {} : { status: extra.status }),
      ...common(item, extra),
      ...(extra?.name === undefined && item.toolName !== undefined ? { name: item.toolName } : {}),
      ...(extra?.artifact === undefined ? {} : { artifact: extra.artifact }),
      ...(extra?.metadata === undefined ? {} : { metadata: extra.metadata }),
    }),
  };
}

/** One item's message. System items are SystemMessages wherever they are; the plugin decides where they go. */
export function renderLangChainMessage(item: Item): RenderedItem {
  const extra = langChainExtraOf(item);
  switch (item.type) {
    case "system": {
      if (isBlank(item.text)) return { reason: "the system message is blank: nothing to send" };
      return { message: new SystemMessage({ content: (keptContent(item, extra) ?? item.text) as Content, ...common(item, extra) }) };
    }
    case "summary":
      // A HumanMessage, as LangChain's summarizationMiddleware sends its summary: a system message after
      // the first is refused by Anthropic and Gemini.
      return { message: new HumanMessage({ content: `${summaryHeading(item)}\n\n${item.text}`, id: item.id }) };
    case "user": {
      const kept = keptContent(item, extra);
      const attachments = item.attachments ?? [];
      const content = kept ?? (attachments.length === 0 ? item.text : [...(isBlank(item.text) ? [] : [{ type: "text", text: item.text }]), ...attachments.map(attachmentBlock)]);
      return { message: new HumanMessage({ content: content as Content, ...common(item, extra) }) };
    }
    case "assistant":
      return renderAssistant(item, extra);
    case "tool-result":
      return renderTool(item, extra);
    case "error":
      return isBlank(item.text) ? { reason: "the error message is empty: nothing to send" } : { message: new AIMessage({ content: item.text, id: item.id }) };
    case "thinking":
      return { reason: "thinking items are not sent to a chat model" };
    default: {
      // Subagents, todos, task outcomes: the labelled text core's OpenAI renderer gives them, in their role.
      const rendered = renderOpenAIChatMessage(item, { systemRole: "system" });
      if (rendered === undefined || typeof rendered.content !== "string") return { reason: `the ${item.type} item has nothing to send` };
      return { message: rendered.role === "user" ? new HumanMessage({ content: rendered.content, id: item.id }) : new AIMessage({ content: rendered.content, id: item.id }) };
    }
  }
}
