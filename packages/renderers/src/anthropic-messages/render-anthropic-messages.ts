// Renders the item list as the system prompt and messages of an Anthropic Messages request:
// - leading system-role items (system, summary) become the top-level system prompt. The API has no
//   system role inside messages: a later system message is moved into the system prompt, or, with
//   laterSystemMessages "user", sent where it was as labelled user-side text; either way reported.
//   A later summary stays where it was, user-side (it stands for the turns around it);
// - items of one role in a row are merged into one message, as the API would merge them (ANT-005);
// - in a user message the tool_result blocks come first (ANT-008);
// - signed reasoning is replayed as thinking blocks only where it opens an assistant message (ANT-014).
import type { Item, ItemOf } from "@ctxpipe/core";
import type { AnthropicMessage, AnthropicUserContentBlock } from "./anthropic-messages-request.js";
import { type AnthropicItemContent, anthropicSystemText, renderAnthropicItem } from "./render-anthropic-item.js";

/**
 * Where a system message stored after the conversation started goes: "system" moves it into the
 * top-level system prompt (it keeps a system instruction's weight); "user" sends it where it was, as
 * user-side text labelled "[System message]" (the system prompt, and so the prompt cache, stays the
 * same when an agent loop adds one every turn).
 */
export type AnthropicLaterSystemMessages = "system" | "user";

export interface AnthropicMessagesOptions {
  /** Default "system". */
  readonly laterSystemMessages?: AnthropicLaterSystemMessages;
}

const MOVED = "a system message inside the conversation, moved into the system prompt: the Anthropic Messages API takes system text only in its top-level system parameter";
const USER_SIDE =
  "a system message inside the conversation, sent where it was as user-side text labelled [System message]: the Anthropic Messages API takes system text only in its top-level system parameter";

/** One item as it reached the request: in the system prompt, or in the message at messageIndex. */
export type AnthropicRenderedPart =
  | { readonly item: Item; readonly system: string }
  | { readonly item: Item; readonly content: AnthropicItemContent; readonly messageIndex: number; readonly thinkingSent: boolean };

export interface RenderedAnthropicMessages {
  /** The top-level system prompt; undefined when there is none (ANT-003). */
  readonly system: string | undefined;
  readonly messages: AnthropicMessage[];
  readonly parts: ReadonlyArray<AnthropicRenderedPart>;
  /** For each item sent in a message, that message's index; merged items share it. */
  readonly messageIndexById: Map<string, number>;
  readonly dropped: ReadonlyArray<{ readonly item: Item; readonly reason: string }>;
  /** Items sent, but not as and where they were stored (a later system message), and how. */
  readonly repaired: ReadonlyArray<{ readonly item: Item; readonly reason: string }>;
  /** What was changed to satisfy the API, for the build's warnings. */
  readonly warnings: ReadonlyArray<string>;
}

const isSystemRole = (item: Item): item is ItemOf<"system"> | ItemOf<"summary"> => item.type === "system" || item.type === "summary";

function dropReason(item: Item): string {
  if (item.type === "thinking") return "thinking items are not sent to the Anthropic Messages API: it takes back only signed reasoning";
  return "nothing to send: its text is blank, and Anthropic rejects empty content";
}

/** Tool results first, everything else after, each in its original order. */
function toolResultsFirst(blocks: AnthropicUserContentBlock[]): AnthropicUserContentBlock[] {
  return [...blocks.filter((block) => block.type === "tool_result"), ...blocks.filter((block) => block.type !== "tool_result")];
}

/** A final assistant message may not end in whitespace (ANT-016). The block is replaced, not changed: `parts` shares it. */
function withoutTrailingWhitespace(messages: AnthropicMessage[]): void {
  const last = messages.at(-1);
  const block = last?.role === "assistant" ? last.content.at(-1) : undefined;
  if (last === undefined || block?.type !== "text" || block.text.trimEnd() === block.text) return;
  last.content[last.content.length - 1] = { type: "text", text: block.text.trimEnd() };
}

/** Adds an item's content to the last message when the role is the same, else as a new message; says whether its thinking was sent. */
function append(messages: AnthropicMessage[], content: AnthropicItemContent): boolean {
  const last = messages.at(-1);
  if (content.role === "user") {
    if (last?.role === "user") last.content.push(...content.blocks);
    else messages.push({ role: "user", content: [...content.blocks] });
    return false;
  }
  if (last?.role === "assistant") {
    last.content.push(...content.blocks);
    return false;
  }
  messages.push({ role: "assistant", content: [...content.thinking, ...content.blocks] });
  return content.thinking.length > 0;
}

export function renderAnthropicMessages(items: ReadonlyArray<Item>, options: AnthropicMessagesOptions = {}): RenderedAnthropicMessages {
  const moveLaterSystem = (options.laterSystemMessages ?? "system") === "system";
  const systemTexts: string[] = [];
  const messages: AnthropicMessage[] = [];
  const parts: AnthropicRenderedPart[] = [];
  const messageIndexById = new Map<string, number>();
  const dropped: { item: Item; reason: string }[] = [];
  const repaired: { item: Item; reason: string }[] = [];
  const warnings: string[] = [];
  let leading = true;

  for (const item of items) {
    if ((leading && isSystemRole(item)) || (item.type === "system" && moveLaterSystem)) {
      const text = anthropicSystemText(item);
      if (text.length === 0) dropped.push({ item, reason: "nothing to send: its text is blank" });
      else {
        systemTexts.push(text);
        parts.push({ item, system: text });
        if (!leading) repaired.push({ item, reason: MOVED });
      }
      continue;
    }
    leading = false;
    const content = renderAnthropicItem(item);
    if (content === undefined) {
      dropped.push({ item, reason: dropReason(item) });
      continue;
    }
    const thinkingSent = append(messages, content);
    if (!thinkingSent && content.role === "assistant" && content.thinking.length > 0) {
      warnings.push(`reasoning of "${item.id}" left out: its message is merged into the assistant turn before it, and thinking blocks must open a turn`);
    }
    if (item.type === "system") repaired.push({ item, reason: USER_SIDE });
    messageIndexById.set(item.id, messages.length - 1);
    parts.push({ item, content, messageIndex: messages.length - 1, thinkingSent });
  }

  for (const message of messages) if (message.role === "user") message.content = toolResultsFirst(message.content);
  withoutTrailingWhitespace(messages);
  const system = systemTexts.length === 0 ? undefined : systemTexts.join("\n\n");
  return { system, messages, parts, messageIndexById, dropped, repaired, warnings };
}
