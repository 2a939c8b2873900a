// AI SDK histories the renderer's tests and golden files share: what agents built on generateText
// store, including the broken shapes ctxpipe exists to repair.
import type { ModelMessage, UIMessage } from "ai";

/** A two-step tool loop with parallel calls, a JSON result, an error result, and a final answer. */
export function toolLoopHistory(): ModelMessage[] {
  return [
    { role: "user", content: "What is the weather in Paris and Oslo?" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Checking both." },
        { type: "tool-call", toolCallId: "call_1", toolName: "weather", input: { city: "Paris" } },
        { type: "tool-call", toolCallId: "call_2", toolName: "weather", input: { city: "Oslo" } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_1", toolName: "weather", output: { type: "json", value: { temp: 18, sky: "clear" } } },
        { type: "tool-result", toolCallId: "call_2", toolName: "weather", output: { type: "error-text", value: "weather service timed out" } },
      ],
    },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_3", toolName: "weather", input: { city: "Oslo" } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_3", toolName: "weather", output: { type: "error-json", value: { status: 503 } } }] },
    { role: "assistant", content: "Paris is 18°C and clear; Oslo's service is down." },
  ];
}

/** Signed and redacted reasoning, a file the user sent and a file the assistant made. */
export function reasoningAndFilesHistory(): ModelMessage[] {
  return [
    {
      role: "user",
      content: [
        { type: "text", text: "Summarize this report." },
        { type: "file", mediaType: "application/pdf", data: "JVBERi0xLjQK", filename: "report.pdf" },
        { type: "image", image: "https://example.com/chart.png" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "The report covers Q3.", providerOptions: { anthropic: { signature: "sig_1" } } },
        { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "RWRhY3RlZA==" } } },
        { type: "text", text: "Q3 revenue grew 12%." },
        { type: "file", mediaType: "image/png", data: "iVBORw0KGgo=" },
      ],
      providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
    },
    { role: "user", content: "Thanks." },
  ];
}

/**
 * A broken history: a call cut off by an aborted stream (no result), a result whose call is gone, a
 * result stored twice, and a system message in the middle.
 */
export function brokenHistory(): ModelMessage[] {
  return [
    { role: "user", content: "List the files, then read the README." },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_ls", toolName: "list_files", input: { path: "." } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_ls", toolName: "list_files", output: { type: "text", value: "README.md\nsrc" } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_ls", toolName: "list_files", output: { type: "text", value: "README.md\nsrc" } }] },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_read", toolName: "read_file", input: { path: "README.md" } }] },
    { role: "system", content: "The user is on a slow connection." },
    { role: "user", content: "Are you there?" },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_gone", toolName: "read_file", output: { type: "text", value: "orphan" } }] },
    { role: "user", content: "Go on." },
  ];
}

/**
 * A useChat history: a step with a search the provider ran (with its sources), an error, a denied
 * approval, and a stream aborted while the model was writing a call.
 */
export function uiChatHistory(): UIMessage[] {
  return [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Find the release notes and delete the draft." }] },
    {
      id: "a1",
      role: "assistant",
      metadata: { model: "claude-sonnet-4-6" },
      parts: [
        { type: "step-start" },
        { type: "reasoning", text: "Search first.", providerMetadata: { anthropic: { signature: "sig_r" } } },
        { type: "tool-web_search", toolCallId: "srvtoolu_1", providerExecuted: true, state: "output-available", input: { query: "release notes" }, output: [{ url: "https://example.com/notes" }] },
        { type: "source-url", sourceId: "src_1", url: "https://example.com/notes", title: "Release notes" },
        { type: "text", text: "Found them." },
        { type: "tool-read_file", toolCallId: "toolu_2", state: "output-error", input: { path: "draft.md" }, errorText: "ENOENT: no such file" },
        { type: "step-start" },
        { type: "tool-delete_file", toolCallId: "toolu_3", state: "output-denied", input: { path: "notes-draft.md" }, approval: { id: "ap_3", approved: false, reason: "Keep the draft." } },
        { type: "step-start" },
        { type: "text", text: "I kept the draft. Listing the folder instead." },
        { type: "dynamic-tool", toolName: "list_files", toolCallId: "toolu_4", state: "input-streaming", input: { pa: undefined }, rawInput: '{"pa' },
      ],
    } as UIMessage,
    { id: "u2", role: "user", parts: [{ type: "text", text: "Are you still there?" }] },
  ];
}
