// A stored agent session in which secrets leak the usual ways: pasted by the user, read from a file
// by a tool, and written by the model into a tool call's arguments.
import type { ItemInput } from "@ctxpipe/core";

// Fakes in the real formats; none of them is a live credential.
const OPENAI_KEY = "sk-proj-EXAMPLE0123456789abcdefEXAMPLE0123456789";
const GITHUB_TOKEN = "ghp_EXAMPLEexample0123456789EXAMPLEexampl";
const DEPLOY_TOKEN = "dpl_example0123456789abcdef";
const ONCALL_EMAIL = "ann.lee@example.com";

/** Every secret planted in the conversation: none of them may reach the request. */
export const PLANTED_SECRETS: ReadonlyArray<string> = [OPENAI_KEY, GITHUB_TOKEN, DEPLOY_TOKEN, ONCALL_EMAIL];

export function agentConversation(): ItemInput[] {
  return [
    {
      id: "u1",
      type: "user",
      createdAt: "2026-03-02T09:00:00.000Z",
      text: `The nightly deploy fails with a 401. This is the key the job uses: ${OPENAI_KEY}\nCan you find out why?`,
    },
    {
      id: "a1",
      type: "assistant",
      createdAt: "2026-03-02T09:00:04.000Z",
      text: "Let me read the deploy configuration first.",
      toolCalls: [{ id: "call_env", name: "read_file", arguments: '{"path":"deploy/.env"}' }],
    },
    {
      id: "t1",
      type: "tool-result",
      createdAt: "2026-03-02T09:00:05.000Z",
      callId: "call_env",
      toolName: "read_file",
      output: `OPENAI_API_KEY=${OPENAI_KEY}\nGITHUB_TOKEN=${GITHUB_TOKEN}\nDEPLOY_URL=https://deploy.example.com\nDEPLOY_TOKEN=${DEPLOY_TOKEN}`,
    },
    {
      id: "a2",
      type: "assistant",
      createdAt: "2026-03-02T09:00:09.000Z",
      text: "I'll check the deploy service's status with that token.",
      toolCalls: [
        {
          id: "call_status",
          name: "http_request",
          arguments: JSON.stringify({ method: "GET", url: "https://deploy.example.com/status", headers: { Authorization: `Token ${DEPLOY_TOKEN}` } }),
        },
      ],
    },
    {
      id: "t2",
      type: "tool-result",
      createdAt: "2026-03-02T09:00:10.000Z",
      callId: "call_status",
      toolName: "http_request",
      output: '{"status":401,"error":"token expired on 2026-03-01"}',
      isError: true,
    },
    {
      id: "a3",
      type: "assistant",
      createdAt: "2026-03-02T09:00:14.000Z",
      text: "The deploy token expired yesterday, so every deploy is rejected. Rotate DEPLOY_TOKEN and the job will pass again.",
    },
    {
      id: "u2",
      type: "user",
      createdAt: "2026-03-02T09:01:00.000Z",
      text: `Thanks, I will rotate it. If it fails again, page me: I am ${ONCALL_EMAIL} on the on-call rota.`,
    },
  ];
}
