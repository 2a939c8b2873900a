// Renders the item list as an AI SDK request, `{ system, messages }`:
// - leading system-role items (the composed system prompt, stored system messages, summaries) become
//   `system`, which generateText takes apart from the messages. AI SDK 7 refuses system messages
//   inside `messages` unless told otherwise, so a later system message is moved into `system` too, or,
//   with laterSystemMessages "user", sent where it was as labelled user text; either way reported;
// - each user and assistant item is one message; tool results in a row share one tool message, right
//   after the assistant message with their calls (the pipeline's repair stage has paired them).
import type { Item, ItemOf } from "@ctxpipe/core";
import type { ModelMessage } from "ai";
import { type AiSdkItemContent, aiSdkSystemText, renderAiSdkItem } from "./render-ai-sdk-item.js";

/**
 * Where a system message stored after the conversation started goes: "system" (default) moves it into
 * the request's `system`; "user" sends it where it was, as user text labelled "[System message]", which
 * keeps `system`, and so a provider's prompt cache, the same when an agent adds one every turn.
 */
export type AiSdkLaterSystemMessages = "system" | "user";

export interface RenderModelMessagesOptions {
  readonly laterSystemMessages?: AiSdkLaterSystemMessages;
  /**
   * Remembers what each item rendered to, so that rendering the same item objects again (an agent's
   * next step) does no work for them. Keep one per renderer; the renderer plugin keeps its own.
   */
  readonly cache?: AiSdkRenderCache;
}

/** What items rendered to, per item object; a result is kept with the tool name it was rendered with. */
export type AiSdkRenderCache = WeakMap<Item, { readonly toolName: string | undefined; readonly content: AiSdkItemContent | undefined }>;

/** One item as it reached the request: in `system`, or in the message at messageIndex. */
export type AiSdkRenderedPart = { readonly item: Item; readonly system: string } | { readonly item: Item; readonly content: AiSdkItemContent; readonly messageIndex: number };

export interface RenderedModelMessages {
  /** The request's system prompt; undefined when there is none. */
  readonly system: string | undefined;
  readonly messages: ModelMessage[];
  readonly parts: ReadonlyArray<AiSdkRenderedPart>;
  /** For each item sent in a message, that message's index; results in one tool message share it. */
  readonly messageIndexById: Map<string, number>;
  readonly dropped: ReadonlyArray<{ readonly item: Item; readonly reason: string }>;
  /** Items sent, but not as and where they were stored (a later system message), and how. */
  readonly repaired: ReadonlyArray<{ readonly item: Item; readonly reason: string }>;
}

const MOVED = "a system message inside the conversation, moved into the request's system prompt: the AI SDK refuses system messages inside messages";
const USER_SIDE = "a system message inside the conversation, sent where it was as user text labelled [System message]: the AI SDK refuses system messages inside messages";

const isSystemRole = (item: Item): item is ItemOf<"system"> | ItemOf<"summary"> => item.type === "system" || item.type === "summary";

function dropReason(item: Item): string {
  if (item.type === "thinking") return "thinking items are not sent: reasoning goes back to the model only on the assistant message that produced it";
  if (item.type === "assistant" && item.toolCalls.length === 0 && (item.reasoning?.length ?? 0) > 0) return "only reasoning, no text or tool call: no provider takes an assistant message with reasoning alone";
  return "nothing to send: its text is blank";
}

// The message each item's content makes, kept per content object: with the renderer's cache, the same
// item gives the same content and so the same message, which the rule checks then know already.
// Frozen, with its content array, so that a caller cannot change a message a later build sends again.
const messageOf = new WeakMap<AiSdkItemContent, ModelMessage>();

function messageFor(content: AiSdkItemContent): ModelMessage {
  const known = messageOf.get(content);
  if (known !== undefined) return known;
  const options = content.providerOptions === undefined ? {} : { providerOptions: content.providerOptions };
  let message: ModelMessage;
  if (content.role === "user") message = { role: "user", content: typeof content.content === "string" ? content.content : Object.freeze([...content.content]) as never, ...options };
  else if (content.role === "assistant") message = { role: "assistant", content: Object.freeze([...content.content]) as never, ...options };
  else message = { role: "tool", content: Object.freeze([...content.content]) as never, ...options };
  Object.freeze(message);
  messageOf.set(content, message);
  return message;
}

/** Adds an item's content: a message of its own, or joined to the tool message before it (a new message then). */
function append(messages: ModelMessage[], content: AiSdkItemContent): void {
  const last = messages.at(-1);
  if (content.role === "tool" && last?.role === "tool") {
    messages[messages.length - 1] = Object.freeze({ ...last, content: Object.freeze([...last.content, ...content.content]) as never });
    return;
  }
  messages.push(messageFor(content));
}

/** The item's content, from the cache when it was rendered before with the same tool name (for a result). */
function renderCached(item: Item, toolNameOf: (callId: string) => string | undefined, cache: AiSdkRenderCache | undefined): AiSdkItemContent | undefined {
  if (cache === undefined) return renderAiSdkItem(item, toolNameOf);
  const toolName = item.type === "tool-result" ? toolNameOf(item.callId) : undefined;
  const known = cache.get(item);
  if (known !== undefined && known.toolName === toolName) return known.content;
  const content = renderAiSdkItem(item, toolNameOf);
  cache.set(item, { toolName, content });
  return content;
}

export function renderModelMessages(items: ReadonlyArray<Item>, options: RenderModelMessagesOptions = {}): RenderedModelMessages {
  const moveLaterSystem = (options.laterSystemMessages ?? "system") === "system";
  const systemTexts: string[] = [];
  const messages: ModelMessage[] = [];
  const parts: AiSdkRenderedPart[] = [];
  const messageIndexById = new Map<string, number>();
  const dropped: { item: Item; reason: string }[] = [];
  const repaired: { item: Item; reason: string }[] = [];
  // Tool names by call id, for results that carry none (the answers ctxpipe's repair stage writes).
  const toolNames = new Map<string, string>();
  const toolNameOf = (callId: string) => toolNames.get(callId);
  let leading = true;

  for (const item of items) {
    if ((leading && isSystemRole(item)) || (item.type === "system" && moveLaterSystem)) {
      const text = aiSdkSystemText(item);
      if (text.length === 0) dropped.push({ item, reason: "nothing to send: its text is blank" });
      else {
        systemTexts.push(text);
        parts.push({ item, system: text });
        if (!leading) repaired.push({ item, reason: MOVED });
      }
      continue;
    }
    leading = false;
    if (item.type === "assistant") for (const call of item.toolCalls) toolNames.set(call.id, call.name);
    const content = renderCached(item, toolNameOf, options.cache);
    if (content === undefined) {
      dropped.push({ item, reason: dropReason(item) });
      continue;
    }
    append(messages, content);
    if (item.type === "system") repaired.push({ item, reason: USER_SIDE });
    messageIndexById.set(item.id, messages.length - 1);
    parts.push({ item, content, messageIndex: messages.length - 1 });
  }
  const system = systemTexts.length === 0 ? undefined : systemTexts.join("\n\n");
  return { system, messages, parts, messageIndexById, dropped, repaired };
}
