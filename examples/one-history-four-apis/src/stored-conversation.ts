// A conversation as an app on OpenAI's Responses API stores it: the input items it sent and the output
// items each response returned, reasoning included (requested with store: false and
// include: ["reasoning.encrypted_content"], so the app keeps the encrypted reasoning itself).

/** The deploy log the first tool call returned: long enough for a prompt cache to be worth it. */
function deployLog(): string {
  const lines = ["$ deploy payments-api --env production --build 8812"];
  for (let step = 1; step <= 150; step += 1) {
    lines.push(`[02:${String(10 + Math.floor(step / 6)).padStart(2, "0")}:${String((step * 7) % 60).padStart(2, "0")}] step ${step}/154 ok: migrated shard ${step} of ledger_entries (${1200 + step * 17} rows, ${40 + (step % 9)} ms)`);
  }
  lines.push("[02:21:03] step 151/154 FAILED: config check: payments-api.yaml: pool.max_connections = 400 exceeds the database limit of 300");
  lines.push("[02:21:03] rollback started; shards 1-150 keep their migration (idempotent)");
  return lines.join("\n");
}

export const tools = [
  {
    name: "read_deploy_log",
    description: "Reads the last deploy log of a service.",
    parameters: { type: "object", properties: { service: { type: "string" } }, required: ["service"] },
  },
  {
    name: "apply_config_patch",
    description: "Applies a one-line change to a service's configuration and re-runs its checks.",
    parameters: { type: "object", properties: { file: { type: "string" }, line: { type: "string" } }, required: ["file", "line"] },
  },
];

export function storedConversation(): unknown[] {
  return [
    { type: "message", role: "developer", content: "You are the release engineer of the payments team. Read logs before changing anything, and change as little as you can." },
    { type: "message", role: "user", content: "The nightly deploy of payments-api failed. Find out why and fix it." },
    {
      type: "reasoning",
      id: "rs_0a1b2c3d4e5f60718293a4b5c6d7e8f9",
      summary: [{ type: "summary_text", text: "I should read the deploy log before proposing a fix." }],
      encrypted_content: "gAAAAABpZ3JlYXNvbmluZy1vbmUtZW5jcnlwdGVkLWJ5LW9wZW5haQ==",
    },
    { type: "function_call", id: "fc_0a1b2c3d4e5f60718293a4b5c6d7e8f9", call_id: "call_Xk2fD91nLq0aPz7Rm3vT8sYb", name: "read_deploy_log", arguments: '{"service":"payments-api"}', status: "completed" },
    { type: "function_call_output", call_id: "call_Xk2fD91nLq0aPz7Rm3vT8sYb", output: deployLog() },
    {
      type: "reasoning",
      id: "rs_1b2c3d4e5f60718293a4b5c6d7e8f90a",
      summary: [{ type: "summary_text", text: "The config asks for more connections than the database allows; lower it to the limit." }],
      encrypted_content: "gAAAAABpZ3JlYXNvbmluZy10d28tZW5jcnlwdGVkLWJ5LW9wZW5haQ==",
    },
    {
      type: "message",
      id: "msg_1b2c3d4e5f60718293a4b5c6d7e8f90a",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Step 151 failed: pool.max_connections is 400, above the database's limit of 300. I'll lower it to 300.", annotations: [] }],
    },
    { type: "function_call", id: "fc_1b2c3d4e5f60718293a4b5c6d7e8f90a", call_id: "call_Pq8wE2mZ5rT1yU6iO0aS4dFg", name: "apply_config_patch", arguments: '{"file":"payments-api.yaml","line":"pool.max_connections: 300"}', status: "completed" },
    { type: "function_call_output", call_id: "call_Pq8wE2mZ5rT1yU6iO0aS4dFg", output: "patched payments-api.yaml; config check passed" },
    {
      type: "message",
      id: "msg_2c3d4e5f60718293a4b5c6d7e8f90a1b",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Fixed: max_connections is now 300 and the config check passes. Shards 1-150 kept their migration, so tonight's deploy resumes at step 151.", annotations: [] }],
    },
    { type: "message", role: "user", content: "Thanks. Will tonight's deploy pass?" },
  ];
}
