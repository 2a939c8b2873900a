// A stored agent session as memory chunks: the user asks, the agent reads a file, hands a
// question to a research subagent, and reports back.
import { type Item, importMemoryChunks } from "@ctxpipe/core";

export function agentSession(): Item[] {
  return importMemoryChunks([
    { id: "c1", type: "AGENT", createdAt: "2026-03-02T09:00:00.000Z", content: { role: "user", text: "Why is the nightly build slow?" } },
    { id: "c2", type: "WORKING_FLOW", subType: "THINKING", createdAt: "2026-03-02T09:00:02.000Z", content: "Check the CI config first." },
    {
      id: "c3",
      type: "WORKFLOW",
      createdAt: "2026-03-02T09:00:03.000Z",
      content: { action: "tool_call", tool: "read_file", call_id: "call_ci", status: "completed", text: '{"path":".github/workflows/nightly.yml"}' },
    },
    {
      id: "c4",
      type: "ENVIRONMENT",
      createdAt: "2026-03-02T09:00:04.000Z",
      content: { source: "tool", tool: "read_file", call_id: "call_ci", success: true, text: "jobs:\n  build:\n    steps:\n      - run: pnpm install --no-frozen-lockfile\n      - run: pnpm build --force" },
    },
    {
      id: "c5",
      type: "DELEGATION",
      createdAt: "2026-03-02T09:00:06.000Z",
      content: { action: "spawn_subagent", subagent_id: "agent_cache", agent_type: "researcher", text: '{"task":"Does --force skip the turbo cache?"}' },
    },
    {
      id: "c6",
      type: "DELEGATION",
      createdAt: "2026-03-02T09:00:30.000Z",
      content: { action: "subagent_result", subagent_id: "agent_cache", success: true, text: "Yes: --force ignores every cached output." },
    },
    {
      id: "c7",
      type: "OUTPUT",
      createdAt: "2026-03-02T09:00:35.000Z",
      content: { action: "task_completed", text: "The nightly job runs `pnpm build --force`, which rebuilds every package. Drop `--force` to use the cache." },
    },
    { id: "c8", type: "AGENT", createdAt: "2026-03-02T09:01:00.000Z", content: { role: "user", text: "Thanks, open a PR for it." } },
  ]);
}
