// Messages in the stored message shape that chat mode and run mode persist (`StoredMessage`, with
// OpenAI-like `tool_calls`), for tests of any store: a chat turn with a tool call (null content), its
// tool result, an LLM error kept so "continue" works, run-mode metadata, and fields no store knows,
// which must come back exactly.

/** A fresh array of example stored messages (`StoredMessage` shape) whose ids start with `prefix`. */
export function exampleStoredMessages(prefix = "m"): Array<{ readonly id: string; readonly role: "user" | "assistant" | "system" | "tool"; readonly [field: string]: unknown }> {
  return [
    { id: `${prefix}-1`, role: "user", content: "USER_INPUT\n列出本目录的文件", createdAt: "2025-03-01T10:00:00.000Z", mode: "chat", runId: "chat-c1", agentId: "analyst" },
    {
      id: `${prefix}-2`,
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "fs.list", arguments: '{"path":"."}' } }],
      createdAt: "2025-03-01T10:00:01.000Z",
      mode: "chat",
      runId: "chat-c1",
      agentId: "analyst",
    },
    {
      id: `${prefix}-3`,
      role: "tool",
      content: '["a.txt","b.txt"]',
      tool_call_id: "call_1",
      createdAt: "2025-03-01T10:00:02.000Z",
      toolName: "fs.list",
      duration: 12,
      partType: "tool_result",
      mode: "chat",
      runId: "chat-c1",
      agentId: "analyst",
    },
    {
      id: `${prefix}-4`,
      role: "assistant",
      content: "LLM_ERROR\ncode: LLM_RATE_LIMITED\nmessage: 429 Too Many Requests",
      createdAt: "2025-03-01T10:00:03.000Z",
      partType: "error",
      mode: "run",
      runId: "r-7",
    },
    { id: `${prefix}-5`, role: "system", content: "stored system note", includeInContext: false },
    {
      id: `${prefix}-6`,
      role: "user",
      content: [{ type: "text", text: "a part" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }],
      // Fields no store knows: kept exactly, whatever they hold.
      metadata: { priority: 3, tags: ["a", "b"], nested: { empty: {}, list: [], flag: false, nothing: null } },
      "key with spaces and ünïcödé": "\u2028line separator\u0000nul and \"quotes\" \\ backslash 😀",
      largeNumber: 1.7976931348623157e308,
      smallNumber: 5e-324,
      negative: -42.5,
      "": "empty key",
    },
  ];
}
