import { checkRules, type ItemInput } from "@ctxpipe/core";
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { modelMessageSchema } from "ai";
import { describe, expect, test } from "vitest";
import { brokenHistory, reasoningAndFilesHistory, toolLoopHistory } from "./__fixtures__/histories.js";
import { AiSdkRendererPlugin } from "./ai-sdk-renderer-plugin.js";
import { aiSdkRules } from "./ai-sdk-rules.js";
import { countAiSdkRequestTokens } from "./count-ai-sdk-tokens.js";
import { importModelMessages } from "./import-model-messages.js";

const plugin = () => new AiSdkRendererPlugin();
const golden = (request: unknown) => `${JSON.stringify(request, null, 2)}\n`;

/** A conversation compacted in the middle: a summary stands for the first turns. */
function compactedConversation(): ItemInput[] {
  return [
    { id: "summary", type: "summary", text: "The user wants the public API unchanged.", coveredIds: ["old1", "old2", "old3"] },
    { id: "u1", type: "user", text: "Fix the failing test." },
    { id: "a1", type: "assistant", text: "Running the tests.", toolCalls: [{ id: "call_t", name: "run_tests", arguments: "{}" }] },
    { id: "t1", type: "tool-result", callId: "call_t", toolName: "run_tests", output: "" },
    { id: "later-summary", type: "summary", text: "Tests were run twice before.", coveredIds: ["old4"] },
    { id: "u2", type: "user", text: "Go on." },
  ];
}

describe("AiSdkRendererPlugin", () => {
  test.for([
    { name: "a tool loop with JSON and error results", file: "tool-loop.ai-sdk.json", items: () => importModelMessages(toolLoopHistory()) },
    { name: "reasoning and files", file: "reasoning-and-files.ai-sdk.json", items: () => importModelMessages(reasoningAndFilesHistory()) },
    { name: "a broken history repaired (unanswered call, orphan and duplicate results)", file: "broken-history.ai-sdk.json", items: () => importModelMessages(brokenHistory()) },
    { name: "a compacted conversation with summaries", file: "compacted-conversation.ai-sdk.json", items: compactedConversation },
    { name: "every item type", file: "every-item-type.ai-sdk.json", items: everyItemTypeFixture },
    { name: "core's parallel tool loop", file: "core-tool-loop.ai-sdk.json", items: toolLoopFixture },
  ])("renders $name (golden file), valid for the AI SDK and with no rule violation", async ({ file, items }) => {
    const result = await buildWith([plugin()], items(), { renderer: "ai-sdk", system: "Be brief." });
    await expect(golden(result.request)).toMatchFileSnapshot(`__fixtures__/${file}`);
    expect(checkRules(aiSdkRules, result.request)).toEqual([]);
    for (const message of result.request.messages) expect(modelMessageSchema.safeParse(message).error).toBeUndefined();
    expect(countAiSdkRequestTokens(result.request, wordTokenizer)).toBe(result.tokenCount);
  });
});
