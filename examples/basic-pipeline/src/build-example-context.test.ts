import { expect, test } from "vitest";
import { buildExampleContext } from "./build-example-context.js";

test("the bundled conversation builds into a valid OpenAI request with a full report", async () => {
  const result = await buildExampleContext();
  expect(result.report.entries).toHaveLength(11);
  // The stored system message (a prompt is composed), the draft marked includeInContext: false and the
  // persisted rate-limit failure (models imitate replayed error text) stay out.
  expect(result.excludedIds).toEqual(["m01", "m07", "m10"]);
  // The interrupted run_tests call gets a synthesized result, so OpenAI accepts the history.
  expect(result.report.synthesized.map((entry) => entry.id)).toEqual(["ctxpipe:system-prompt", "ctxpipe:interrupted:m09:call_test"]);
  expect(result.request.messages.at(-1)).toEqual({ role: "user", content: "USER_INPUT\ncontinue" });
  expect(result.request.messages[0]).toEqual({ role: "system", content: "You are a senior build engineer.\n\nAnswer in short, concrete steps." });
});
