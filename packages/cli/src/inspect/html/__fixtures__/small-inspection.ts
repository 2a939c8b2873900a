// A small, fixed inspection for the golden page and the unit tests: a dropped message, a repaired call
// with its synthesized result, a summary covering two messages, a cleared tool result, a warning, and
// a cache break at message 2.
import type { StageLabel } from "@ctxpipe/core";
import type { Inspection, TimelineRow } from "../../inspection.js";

const row = (fields: Partial<TimelineRow> & Pick<TimelineRow, "id" | "type" | "decision" | "plugin" | "reason" | "tokens"> & { readonly stage: StageLabel }): TimelineRow => ({
  inputIndex: undefined,
  location: undefined,
  role: fields.type,
  relatedId: undefined,
  tokensSaved: undefined,
  messageIndex: undefined,
  preview: "",
  history: [{ decision: fields.decision, stage: fields.stage, plugin: fields.plugin, reason: fields.reason, ...(fields.relatedId === undefined ? {} : { relatedId: fields.relatedId }) }],
  savedBy: fields.tokensSaved === undefined ? [] : [{ plugin: fields.plugin, tokens: fields.tokensSaved }],
  ...fields,
});

export const SMALL_INSPECTION: Inspection = {
  title: "conversation.jsonl",
  provider: "openai",
  model: "gpt-4o",
  tokenizer: { name: "o200k_base", exact: true },
  tokenCount: 120,
  tokenCountExact: true,
  budget: {
    maxTokens: 400,
    reserveOutputTokens: 100,
    available: 300,
    origin: "400 budget − 100 reserved for the answer",
    used: 120,
    segments: [
      { kind: "system", label: "System prompt", tokens: 10, items: 1 },
      { kind: "user", label: "User messages", tokens: 20, items: 2 },
      { kind: "assistant", label: "Assistant messages and tool calls", tokens: 25, items: 2 },
      { kind: "tool-results", label: "Tool results", tokens: 30, items: 2 },
      { kind: "summaries", label: "Summaries", tokens: 15, items: 1 },
      { kind: "overhead", label: "Message formatting and tool definitions", tokens: 20, items: 0 },
      { kind: "reserved-output", label: "Reserved for the answer", tokens: 100, items: 0 },
      { kind: "free", label: "Free", tokens: 180, items: 0 },
    ],
  },
  decisions: { kept: 3, merged: 0, repaired: 0, synthesized: 0, cleared: 1, truncated: 0, summarized: 2, dropped: 1 },
  inputCount: 7,
  outputCount: 6,
  timeline: [
    row({ id: "ctxpipe:system-prompt", type: "system", decision: "synthesized", stage: "insert-system", plugin: "InsertSystemPlugin", reason: "system prompt merged from 1 part(s): cli:system", tokens: 10, messageIndex: 0, preview: "Be brief." }),
    row({ id: "summary_1", type: "summary", role: "system", decision: "synthesized", stage: "compress", plugin: "summarize", reason: "summary of 2 messages made in this build", tokens: 15, messageIndex: 1, preview: "The user asked for the logs; they were read." }),
    row({ id: "m1", inputIndex: 0, location: "line 1", type: "user", decision: "summarized", stage: "compress", plugin: "summarize", reason: 'covered by summary "summary_1"', relatedId: "summary_1", tokens: 12, tokensSaved: 12, messageIndex: 1, preview: "Show me the logs." }),
    row({ id: "m2", inputIndex: 1, location: "line 2", type: "assistant", decision: "summarized", stage: "compress", plugin: "summarize", reason: 'covered by summary "summary_1"', relatedId: "summary_1", tokens: 14, tokensSaved: 14, messageIndex: 1, preview: "Reading them." }),
    row({ id: "m3", inputIndex: 2, location: "line 3", type: "user", decision: "dropped", stage: "filter", plugin: "FilterPlugin", reason: "includeInContext is false", tokens: 8, tokensSaved: 8, preview: "(draft)" }),
    row({ id: "m4", inputIndex: 3, location: "line 4", type: "assistant", decision: "kept", stage: "render", plugin: "OpenAIChatRendererPlugin", reason: "sent in message 2", tokens: 25, messageIndex: 2, preview: "read_file({\"path\":\"a.log\"})" }),
    row({
      id: "m5",
      inputIndex: 4,
      location: "line 5",
      type: "tool-result",
      role: "tool",
      decision: "cleared",
      stage: "compress",
      plugin: "clear-tool-results",
      reason: "old tool result replaced by a placeholder (40 tokens)",
      tokens: 12,
      tokensSaved: 28,
      messageIndex: 3,
      preview: "[Tool result cleared to save context (40 tokens). Call read_file again if you need it.]",
      history: [
        { decision: "kept", stage: "filter", plugin: "FilterPlugin", reason: "passed the filter" },
        { decision: "cleared", stage: "compress", plugin: "clear-tool-results", reason: "old tool result replaced by a placeholder (40 tokens)" },
      ],
    }),
    row({ id: "m6", inputIndex: 5, location: "line 6", type: "tool-result", role: "tool", decision: "kept", stage: "render", plugin: "OpenAIChatRendererPlugin", reason: "sent in message 4", tokens: 18, messageIndex: 4, preview: "ok" }),
    row({ id: "m7", inputIndex: 6, location: "line 7", type: "user", decision: "kept", stage: "render", plugin: "OpenAIChatRendererPlugin", reason: "sent in message 5", tokens: 8, messageIndex: 5, preview: "Thanks & bye <3" }),
  ],
  summaries: [{ id: "summary_1", source: "new", text: "The user asked for the logs; they were read.", tokens: 15, sent: true, coveredIds: ["m1", "m2"], coveredTokens: 26, note: undefined }],
  systemParts: [{ id: "cli:system", addedBy: "command line", tokens: 3 }],
  request: {
    model: "gpt-4o",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "system", content: "The user asked for the logs; they were read." },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"a.log"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "[Tool result cleared to save context (40 tokens). Call read_file again if you need it.]" },
      { role: "tool", tool_call_id: "c2", content: "ok" },
      { role: "user", content: "Thanks & bye <3" },
    ],
  },
  cache: { compared: true, breaksAt: "messages", sameMessages: 2, previousMessages: 4, note: undefined },
  compression: {
    triggered: true,
    usageBefore: 160,
    usageAfter: 120,
    strategies: [
      { name: "clear-tool-results", ran: true, itemsAffected: 1, tokensSaved: 28 },
      { name: "summarize", ran: true, itemsAffected: 2, tokensSaved: 11 },
    ],
  },
  savings: {
    total: 47,
    byPlugin: [
      { plugin: "clear-tool-results", items: 1, tokens: 28 },
      { plugin: "summarize", items: 2, tokens: 11 },
      { plugin: "FilterPlugin", items: 1, tokens: 8 },
    ],
  },
  warnings: ["line 3: unknown field \"draft\" ignored"],
  violations: [],
};
