// Small, realistic item lists for tests: a plain chat and an agent tool loop with parallel calls.
import type { ItemInput } from "../model/item.js";

/** A three-turn chat with a stored system message and one message excluded from context. */
export function conversationFixture(): ItemInput[] {
  return [
    { id: "sys", type: "system", text: "Old stored system prompt", createdAt: "2026-01-01T09:59:00.000Z" },
    { id: "u1", type: "user", text: "What is the capital of France?", createdAt: "2026-01-01T10:00:00.000Z" },
    { id: "a1", type: "assistant", text: "Paris.", createdAt: "2026-01-01T10:00:01.000Z" },
    { id: "u2", type: "user", text: "Note to self", createdAt: "2026-01-01T10:00:02.000Z", metadata: { includeInContext: false } },
    { id: "u3", type: "user", text: "And of Italy?", createdAt: "2026-01-01T10:00:03.000Z" },
    { id: "a3", type: "assistant", text: "Rome.", createdAt: "2026-01-01T10:00:04.000Z" },
  ];
}

/** An agent turn: the user asks, the assistant calls two tools in parallel, both answer, it replies. */
export function toolLoopFixture(): ItemInput[] {
  return [
    { id: "u1", type: "user", text: "Compare the two config files." },
    {
      id: "a1",
      type: "assistant",
      text: "",
      toolCalls: [
        { id: "call_a", name: "read_file", arguments: '{"path":"a.json"}' },
        { id: "call_b", name: "read_file", arguments: '{"path":"b.json"}' },
      ],
    },
    { id: "t1", type: "tool-result", callId: "call_a", toolName: "read_file", output: '{"port":80}', durationMs: 3 },
    { id: "t2", type: "tool-result", callId: "call_b", toolName: "read_file", output: '{"port":8080}', durationMs: 4 },
    { id: "a2", type: "assistant", text: "b.json uses port 8080 instead of 80." },
  ];
}
