// An agent run as a real app stores it after a bad day: the process died while two parallel tool
// calls ran (one result was written, one never was), a log line was cut in the middle of an emoji,
// the model call then failed and the error was persisted, and a tool id came from another provider.
import type { ItemInput } from "@ctxpipe/core";

export function crashedRun(): ItemInput[] {
  return [
    { id: "u1", type: "user", text: "Why does the deploy fail? Check the logs and the config." },
    {
      id: "a1",
      type: "assistant",
      text: "Reading both.",
      toolCalls: [
        { id: "call_logs", name: "read_logs", arguments: '{"service":"api"}' },
        { id: "fc_68a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0", name: "mcp.read_config", arguments: '{"path":"deploy.yaml' },
      ],
    },
    { id: "t1", type: "tool-result", callId: "call_logs", toolName: "read_logs", output: "ERROR connection refused 🔥 retrying \uD83D" },
    { id: "e1", type: "error", text: "LLM_TIMEOUT: the model did not answer in time." },
    { id: "t-stale", type: "tool-result", callId: "call_from_an_old_session", output: "stale output" },
  ];
}
