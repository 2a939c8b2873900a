import { checkRules, type Item, type ItemInput } from "@ctxpipe/core";
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { modelMessageSchema } from "ai";
import { describe, expect, test } from "vitest";
import { brokenHistory, reasoningAndFilesHistory, toolLoopHistory, uiChatHistory } from "./__fixtures__/histories.js";
import { AiSdkRendererPlugin } from "./ai-sdk-renderer-plugin.js";
import { aiSdkRules } from "./ai-sdk-rules.js";
import { countAiSdkRequestTokens, countAiSdkToolTokens } from "./count-ai-sdk-tokens.js";
import { importModelMessages } from "./import-model-messages.js";
import { importUIMessages } from "./import-ui-messages.js";
import { renderModelMessages } from "./render-model-messages.js";

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
    { name: "a UI chat: a provider-executed search, an error, a denied approval, an aborted stream", file: "ui-chat.ai-sdk.json", items: () => importUIMessages(uiChatHistory()) },
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

  test.for([
    { option: "system" as const, system: "The user is on a slow connection.", reason: "moved into the request's system prompt" },
    { option: "user" as const, system: undefined, reason: "sent where it was as user text labelled [System message]" },
  ])("a system message inside the conversation, laterSystemMessages $option: never a system message in messages, and reported", async ({ option, system, reason }) => {
    const items: ItemInput[] = [
      { id: "u1", type: "user", text: "Hi." },
      { id: "s1", type: "system", text: "The user is on a slow connection." },
      { id: "u2", type: "user", text: "Still there?" },
    ];
    // No composed prompt: stored system messages are the prompt, and a later one stays where it was stored.
    const result = await buildWith([new AiSdkRendererPlugin({ laterSystemMessages: option })], items, { renderer: "ai-sdk" });
    expect(result.request.system).toBe(system);
    expect(result.request.messages.some((message) => message.role === "system")).toBe(false);
    expect(result.report.entries.find((entry) => entry.id === "s1")).toMatchObject({ decision: "repaired", plugin: "AiSdkRendererPlugin" });
    expect(result.report.entries.find((entry) => entry.id === "s1")?.reason).toContain(reason);
  });

  test("leaves thinking items out and says why", async () => {
    const result = await buildWith([plugin()], everyItemTypeFixture(), { renderer: "ai-sdk" });
    expect(result.report.entries.find((entry) => entry.id === "thinking")).toMatchObject({
      decision: "dropped",
      plugin: "AiSdkRendererPlugin",
      reason: "thinking items are not sent: reasoning goes back to the model only on the assistant message that produced it",
    });
  });

  test("results in a row share one tool message, right after their calls", async () => {
    const result = await buildWith([plugin()], importModelMessages(toolLoopHistory()), { renderer: "ai-sdk" });
    expect(result.report.entries.map((entry) => [entry.id, entry.messageIndex])).toEqual([
      ["msg-0", 0],
      ["msg-1", 1],
      ["msg-2.0", 2],
      ["msg-2.1", 2],
      ["msg-3", 3],
      ["msg-4.0", 4],
      ["msg-5", 5],
    ]);
  });

  test("an item a stage changed is rebuilt from its fields, with the provider options of its calls, reasoning and message put back", () => {
    const [user, assistant, ...rest] = importModelMessages([
      { role: "user", content: "Go." },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Plan.", providerOptions: { anthropic: { signature: "s1" } } },
          { type: "text", text: "A long preamble." },
          { type: "tool-call", toolCallId: "c1", toolName: "search", input: { q: "x" }, providerOptions: { google: { thoughtSignature: "t1" } } },
          { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1" },
        ],
        providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "search", output: { type: "json", value: { hits: [1, 2, 3] } } }] },
    ]);
    // What a compression strategy does: a new item with other text, and a result cut to fewer hits.
    const changed = { ...(assistant as Item & { type: "assistant" }), text: "[preamble cleared]" };
    const cut = { ...(rest[0] as Item & { type: "tool-result" }), output: '{"hits":[1]}' };
    const { messages } = renderModelMessages([user as Item, changed, cut]);
    expect(messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Plan.", providerOptions: { anthropic: { signature: "s1" } } },
          { type: "text", text: "[preamble cleared]" },
          { type: "tool-call", toolCallId: "c1", toolName: "search", input: { q: "x" }, providerOptions: { google: { thoughtSignature: "t1" } } },
          { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1" },
        ],
        providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "search", output: { type: "json", value: { hits: [1] } } }] },
    ]);
    // Cut so that it is no longer JSON: sent as text.
    const broken = { ...cut, output: '{"hits":[1, … [cut]' };
    expect(renderModelMessages([user as Item, assistant as Item, broken]).messages[2]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c1", toolName: "search", output: { type: "text", value: '{"hits":[1, … [cut]' } }],
    });
  });

  test("a tool message of approval responses alone is carried by an empty assistant item: the default filter leaves it out and reports it", async () => {
    const response = { type: "tool-approval-response", approvalId: "ap1", approved: true } as const;
    const items = importModelMessages([{ role: "user", content: "Delete it." }, { role: "tool", content: [response] }]);
    expect(renderModelMessages(items).messages[1]).toEqual({ role: "tool", content: [response] });
    const result = await buildWith([plugin()], items, { renderer: "ai-sdk" });
    expect(result.request.messages).toEqual([{ role: "user", content: "Delete it." }]);
    expect(result.report.entries[1]).toMatchObject({ id: "msg-1", decision: "dropped" });
  });

  test("counts the tool definitions as OpenAI counts them", async () => {
    const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
    const items: ItemInput[] = [{ id: "u", type: "user", text: "hello world" }];
    const withTools = await buildWith([plugin()], items, { renderer: "ai-sdk", tools });
    const without = await buildWith([plugin()], items, { renderer: "ai-sdk" });
    expect(withTools.tokenCount - without.tokenCount).toBe(countAiSdkToolTokens(tools, wordTokenizer));
    expect(withTools.tokenCount - without.tokenCount).toBeGreaterThan(0);
    // 3 to prime the reply, then 3 + "user" (1) + "hello world" (2).
    expect(without.tokenCount).toBe(3 + 3 + 1 + 2);
  });
});

