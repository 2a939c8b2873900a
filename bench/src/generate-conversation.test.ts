import { createPipeline, importStoredMessages } from "@ctxpipe/core";
import { expect, test } from "vitest";
import { generateConversation } from "./generate-conversation.js";

test("the generated workload is deterministic and builds without repairs", async () => {
  const conversation = generateConversation(200);
  expect(conversation).toHaveLength(200);
  expect(generateConversation(200)).toEqual(conversation);
  const result = await createPipeline().build(importStoredMessages(conversation));
  expect(result.report.entries.every((entry) => entry.decision === "kept" || entry.id === "m199")).toBe(true);
  const toolResults = conversation.filter((message) => message.role === "tool").map((message) => Buffer.byteLength(message.content ?? ""));
  expect(Math.min(...toolResults)).toBeGreaterThanOrEqual(1000);
  expect(Math.max(...toolResults)).toBeLessThanOrEqual(20_000);
});
