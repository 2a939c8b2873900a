// Anthropic Messages rules on message content and text blocks (reference/providers.md §3: ANT-011,
// 012, 013, 021, 016).
import { type Rule, visitJson } from "@ctxpipe/core";
import { at, atBlock, isRecord, messageViewAt, messageViewsOf, textBlocksOf, wherePath } from "./anthropic-message-view.js";

const MAX_CACHE_BREAKPOINTS = 4;
const isEmptyText = (text: unknown): boolean => typeof text !== "string" || text.trim() === "";

export const contentNotEmpty: Rule<unknown> = {
  id: "ANT-011",
  level: "error",
  requires: "every message has non-empty content, except an optional final assistant message",
  providerError: "messages.0: all messages must have non-empty content except for the optional final assistant message",
  check(request, report) {
    const messages = messageViewsOf(request) ?? [];
    for (const message of messages) {
      if (!message.isObject) continue;
      const content = message.fields.content;
      if (typeof content !== "string" && !Array.isArray(content)) {
        report({ message: content === undefined ? "the message has no content" : "content is not a string or an array of blocks", ...at(message, ".content") });
        continue;
      }
      const finalAssistant = message.index === messages.length - 1 && message.role === "assistant";
      if (content.length === 0 && !finalAssistant) report({ message: "the message content is empty", ...at(message, ".content") });
    }
  },
};

export const textNotBlank: Rule<unknown> = {
  id: "ANT-012",
  level: "error",
  requires: "no empty or whitespace-only text, in messages, in system and inside tool_result",
  providerError: "messages: text content blocks must be non-empty",
  check(request, report) {
    for (const block of textBlocksOf(request)) {
      const { text } = block.fields;
      if (typeof text !== "string") report({ message: "the text block has no string text", ...wherePath(`${block.path()}.text`) });
      else if (text.trim() === "") report({ message: text === "" ? "the text block is empty" : "text content blocks must contain non-whitespace text", ...wherePath(`${block.path()}.text`) });
    }
    // String content is a text block too; "" is ANT-011's (or ANT-017's, or ANT-003's) empty content.
    const blankString = (value: unknown) => typeof value === "string" && value !== "" && value.trim() === "";
    if (isRecord(request) && blankString(request.system)) report({ message: "the system prompt is only whitespace", path: "system" });
    for (const message of messageViewsOf(request) ?? []) {
      if (blankString(message.fields.content)) report({ message: "the message content is only whitespace", ...at(message, ".content") });
      for (const block of message.blocks) {
        if (block.type === "tool_result" && blankString(block.fields.content)) report({ message: "the tool_result content is only whitespace", ...atBlock(block, ".content") });
      }
    }
  },
};

export const atMostFourCacheBreakpoints: Rule<unknown> = {
  id: "ANT-013",
  level: "error",
  requires: "at most 4 cache_control breakpoints across tools, system and messages (top-level automatic caching uses one)",
  providerError: "A maximum of 4 blocks with cache_control may be provided. Found 5.",
  check(request, report) {
    const found: string[] = [];
    visitJson(request, {
      value(value, key, path) {
        if (key === "cache_control" && value !== null && value !== undefined) found.push(path());
      },
    });
    if (found.length > MAX_CACHE_BREAKPOINTS) {
      report({ message: `${found.length} cache_control breakpoints; at most ${MAX_CACHE_BREAKPOINTS} may be provided`, ...wherePath(found[MAX_CACHE_BREAKPOINTS]!) });
    }
  },
};

export const noCacheControlOnEmptyText: Rule<unknown> = {
  id: "ANT-021",
  level: "error",
  requires: "cache_control is not set on an empty text block",
  providerError: "messages.29.content.0.text: cache_control cannot be set for empty text blocks",
  check(request, report) {
    for (const block of textBlocksOf(request)) {
      const { cache_control: cacheControl, text } = block.fields;
      if (cacheControl !== undefined && cacheControl !== null && isEmptyText(text)) report({ message: "cache_control cannot be set for empty text blocks", ...wherePath(`${block.path()}.cache_control`) });
    }
  },
};

export const finalAssistantNoTrailingWhitespace: Rule<unknown> = {
  id: "ANT-016",
  level: "error",
  requires: "a final assistant message does not end in whitespace",
  providerError: "messages: final assistant content cannot end with trailing whitespace",
  check(request, report) {
    const last = messageViewAt(request, -1);
    if (last === undefined || last.role !== "assistant") return;
    const block = last.blocks.at(-1);
    const text = block?.type === "text" ? block.fields.text : undefined;
    if (block !== undefined && typeof text === "string" && text !== "" && /\s$/u.test(text)) {
      report({ message: "the final assistant content ends with whitespace", ...atBlock(block, typeof last.fields.content === "string" ? "" : ".text") });
    }
  },
};
