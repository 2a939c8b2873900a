// The example's promise: whatever leaked into the stored conversation, no secret reaches the request.
import { describe, expect, test } from "vitest";
import { PLANTED_SECRETS } from "./agent-conversation.js";
import { buildRedactedContext } from "./build-redacted-context.js";

describe("redact-before-sending example", () => {
  test("sends no planted secret to OpenAI", async () => {
    const sent = JSON.stringify((await buildRedactedContext()).request);
    expect(PLANTED_SECRETS.filter((secret) => sent.includes(secret))).toEqual([]);
  });

  test("reports each item it redacted, and sends every item", async () => {
    const result = await buildRedactedContext();
    const repaired = result.report.entries.filter((entry) => entry.decision === "repaired");
    expect(repaired.map(({ id, stage, plugin, reason }) => ({ id, stage, plugin, reason }))).toEqual([
      { id: "u1", stage: "compress", plugin: "RedactSecretsPlugin", reason: "redacted 1 secret: openai-api-key" },
      { id: "t1", stage: "compress", plugin: "RedactSecretsPlugin", reason: "redacted 3 secrets: openai-api-key, github-token, deploy-token" },
      { id: "a2", stage: "compress", plugin: "RedactSecretsPlugin", reason: "redacted 1 secret: deploy-token" },
      { id: "u2", stage: "compress", plugin: "RedactSecretsPlugin", reason: "redacted 1 secret: email" },
    ]);
    expect(result.includedIds).toEqual(["u1", "a1", "t1", "a2", "t2", "a3", "u2"]);
  });

  test("keeps the redacted tool-call arguments valid JSON", async () => {
    const { request } = await buildRedactedContext();
    const calls = request.messages.flatMap((message) => (message.role === "assistant" ? (message.tool_calls ?? []) : []));
    expect(calls.map((call) => JSON.parse(call.function.arguments))).toEqual([
      { path: "deploy/.env" },
      { method: "GET", url: "https://deploy.example.com/status", headers: { Authorization: "Token [REDACTED:deploy-token]" } },
    ]);
  });
});
