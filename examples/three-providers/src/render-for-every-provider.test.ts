import { checkRules, openAIChatRules } from "@ctxpipe/core";
import { anthropicMessagesRules, geminiRules } from "@ctxpipe/renderers";
import { describe, expect, test } from "vitest";
import { crashedRun } from "./crashed-run.js";
import { renderForEveryProvider, repairsOf } from "./render-for-every-provider.js";

describe("a crashed run, rendered for three providers", () => {
  test("each request breaks none of its provider's rules", async () => {
    const { openai, anthropic, gemini } = await renderForEveryProvider(crashedRun());
    expect(checkRules(openAIChatRules, openai.request, { model: "gpt-4o" })).toEqual([]);
    expect(checkRules(anthropicMessagesRules, anthropic.request, { model: "claude-sonnet-4-6" })).toEqual([]);
    expect(checkRules(geminiRules, gemini.request, { model: "gemini-3-pro" })).toEqual([]);
  });

  test("the report explains every repair", async () => {
    const { openai } = await renderForEveryProvider(crashedRun());
    const lines = repairsOf(openai.report.entries).join("\n");
    expect(lines).toContain("t-stale: dropped");
    expect(lines).toContain("replaced lone surrogates");
    expect(lines).toContain("call ids rewritten");
    // The persisted failure stays in the log but is not sent: models imitate replayed error text.
    expect(lines).toContain("e1: dropped");
    expect(JSON.stringify(openai.request)).not.toContain("LLM_TIMEOUT");
    expect(openai.report.synthesized.map((entry) => entry.id)).toEqual(["ctxpipe:system-prompt", expect.stringMatching(/^ctxpipe:interrupted:a1:/)]);
  });
});
