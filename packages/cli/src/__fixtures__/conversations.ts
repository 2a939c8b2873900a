// Small stored conversations for the CLI's tests, in the stored message shape (role, content,
// tool_calls, tool_call_id, toolName, createdAt) that `ctxpipe build` reads.
export const AGENT_CONVERSATION = [
  { id: "u1", role: "user", content: "USER_INPUT\nWhy is the build slow?", createdAt: "2026-05-01T10:00:00.000Z" },
  {
    id: "a1",
    role: "assistant",
    content: "Let me read the log.",
    tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"build.log"}' } }],
    createdAt: "2026-05-01T10:00:01.000Z",
  },
  { id: "t1", role: "tool", tool_call_id: "call_1", content: "step 1 took 300 s\nstep 2 took 2 s", toolName: "read_file", duration: 12, partType: "tool_result", createdAt: "2026-05-01T10:00:02.000Z" },
  { id: "a2", role: "assistant", content: "Step 1 takes almost all of the time.", createdAt: "2026-05-01T10:00:03.000Z" },
  { id: "u2", role: "user", content: "USER_INPUT\nWhat does step 1 do?", createdAt: "2026-05-01T10:00:04.000Z" },
] as const;

/** The same turn in the flat form some stores write, with a summary message covering an inclusive range. */
export const FLAT_CONVERSATION = [
  { id: "u1", role: "user", content: "Find the failing test." },
  { id: "a1", role: "assistant", content: "", tool_calls: [{ id: "c1", name: "run_tests", arguments: '{"filter":"auth"}' }] },
  { id: "t1", role: "tool", tool_call_id: "c1", content: "1 failed: auth/login.test.ts" },
  { id: "s1", kind: "summary", content: "The user asked for the failing test; it is auth/login.test.ts.", summary: { fromId: "u1", toId: "t1" } },
  { id: "u2", role: "user", content: "Fix it." },
] as const;
