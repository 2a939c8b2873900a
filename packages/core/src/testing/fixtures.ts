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

/** One item of every type the model has, in a plausible order, ending on a user message: for golden tests of renderers. */
export function everyItemTypeFixture(): ItemInput[] {
  return [
    { id: "summary", type: "summary", text: "The user set up the repo.", coveredIds: ["old1", "old2", "old3"] },
    { id: "parent", type: "parent-message", parentAgentId: "agent_000", text: "Research the bug." },
    { id: "user", type: "user", text: "Look at this screenshot.", attachments: [{ type: "image", url: "https://example.test/shot.png", detail: "low" }] },
    { id: "thinking", type: "thinking", text: "The screenshot shows a stack trace." },
    { id: "clarify", type: "assistant", text: "Which branch?", clarification: true },
    { id: "intervention", type: "user-intervention", text: "main, and hurry." },
    {
      id: "calls",
      type: "assistant",
      text: "Reading the file and asking a skill.",
      toolCalls: [
        { id: "call_1", name: "read_file", arguments: '{"path":"/src/main.ts"}' },
        { id: "call_2", name: "code_review", arguments: '{"code":"..."}', kind: "skill" },
      ],
    },
    { id: "result_1", type: "tool-result", callId: "call_1", toolName: "read_file", output: "export {}", durationMs: 12 },
    { id: "result_2", type: "tool-result", callId: "call_2", toolName: "code_review", output: "Skill crashed", isError: true, kind: "skill" },
    { id: "spawn", type: "subagent-spawn", subagentId: "agent_123", agentType: "researcher", text: '{"task":"Search for..."}' },
    { id: "to_sub", type: "subagent-message", subagentId: "agent_123", text: "Keep going." },
    { id: "from_sub", type: "subagent-result", subagentId: "agent_123", success: false, text: "Found nothing." },
    { id: "todo", type: "todo-update", text: '{"todos":["fix bug"]}' },
    { id: "error", type: "error", text: "LLM_TIMEOUT: the model did not answer in time.", code: "LLM_TIMEOUT" },
    { id: "done", type: "task-completed", text: '{"result":"fixed"}' },
    { id: "abandoned", type: "task-abandoned", reason: "no access", text: '{"partialResult":"half"}' },
    { id: "terminated", type: "task-terminated", terminatedBy: "user", text: "Stopped." },
    { id: "stored_system", type: "system", text: "A stored system message." },
    { id: "last", type: "user", text: "Status?" },
  ];
}
