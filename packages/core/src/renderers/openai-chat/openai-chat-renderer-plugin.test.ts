import { describe, expect, test } from "vitest";
import type { ItemInput } from "../../model/item.js";
import { createPipeline } from "../../pipeline/pipeline.js";
import type { Tokenizer } from "../../spec/tokenizer.js";
import { buildWith, toolLoopFixture, wordTokenizer } from "../../testing/index.js";
import { countOpenAIChatTokens } from "./count-openai-chat-tokens.js";
import { OpenAIChatRendererPlugin } from "./openai-chat-renderer-plugin.js";

/** One item of every type the model has, in a plausible order. */
const everyItemType: ItemInput[] = [
  { id: "summary", type: "summary", text: "The user set up the repo.", coveredIds: ["old1", "old2", "old3"] },
  { id: "parent", type: "parent-message", parentAgentId: "agent_000", text: "Research the bug." },
  { id: "user", type: "user", text: "Look at this screenshot.", attachments: [{ type: "image", url: "https://example.test/shot.png", detail: "low" }] },
  { id: "thinking", type: "thinking", text: "The screenshot shows a stack trace." },
  { id: "clarify", type: "assistant", text: "Which branch?", clarification: true },
  { id: "intervention", type: "user-intervention", text: "main, and hurry." },
  {
    id: "calls",
    type: "assistant",
    text: "Reading the file and asking a skill.",
    toolCalls: [
      { id: "call_1", name: "read_file", arguments: '{"path":"/src/main.ts"}' },
      { id: "call_2", name: "code_review", arguments: '{"code":"..."}', kind: "skill" },
    ],
  },
  { id: "result_1", type: "tool-result", callId: "call_1", toolName: "read_file", output: "export {}", durationMs: 12 },
  { id: "result_2", type: "tool-result", callId: "call_2", toolName: "code_review", output: "Skill crashed", isError: true, kind: "skill" },
  { id: "spawn", type: "subagent-spawn", subagentId: "agent_123", agentType: "researcher", text: '{"task":"Search for..."}' },
  { id: "to_sub", type: "subagent-message", subagentId: "agent_123", text: "Keep going." },
  { id: "from_sub", type: "subagent-result", subagentId: "agent_123", success: false, text: "Found nothing." },
  { id: "todo", type: "todo-update", text: '{"todos":["fix bug"]}' },
  { id: "error", type: "error", text: "LLM_TIMEOUT: the model did not answer in time.", code: "LLM_TIMEOUT" },
  { id: "done", type: "task-completed", text: '{"result":"fixed"}' },
  { id: "abandoned", type: "task-abandoned", reason: "no access", text: '{"partialResult":"half"}' },
  { id: "terminated", type: "task-terminated", terminatedBy: "user", text: "Stopped." },
  { id: "stored_system", type: "system", text: "A stored system message." },
  { id: "last", type: "user", text: "Status?" },
];

describe("OpenAIChatRendererPlugin", () => {
  test("renders every item type (golden file)", async () => {
    const result = await buildWith([], everyItemType, { system: "You are a careful engineer.", model: "gpt-4o" });
    await expect(`${JSON.stringify(result.request, null, 2)}\n`).toMatchFileSnapshot("__fixtures__/every-item-type.openai.json");
    expect(result.report.entries.find((entry) => entry.id === "thinking")).toMatchObject({
      decision: "dropped",
      stage: "render",
      plugin: "OpenAIChatRendererPlugin",
      reason: "thinking items are not sent to OpenAI Chat Completions",
    });
  });

  test("renders a parallel tool loop (golden file)", async () => {
    const result = await buildWith([], toolLoopFixture(), { system: "Be brief." });
    await expect(`${JSON.stringify(result.request, null, 2)}\n`).toMatchFileSnapshot("__fixtures__/tool-loop.openai.json");
  });

  test("uses the developer role when asked (o1 and newer)", async () => {
    const result = await buildWith([new OpenAIChatRendererPlugin({ systemRole: "developer" })], [{ id: "u", type: "user", text: "hi" }], { system: "Rules." });
    expect(result.request.messages[0]).toEqual({ role: "developer", content: "Rules." });
  });

  test("renders tool definitions in OpenAI's format and counts them", async () => {
    const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
    const withTools = await buildWith([], [{ id: "u", type: "user", text: "hi" }], { tools });
    const without = await buildWith([], [{ id: "u", type: "user", text: "hi" }]);
    expect(withTools.request.tools).toEqual([{ type: "function", function: tools[0] }]);
    expect(withTools.tokenCount - without.tokenCount).toBe(wordTokenizer.count(JSON.stringify(withTools.request.tools)));
  });

  test("reports which message carries each item", async () => {
    const result = await buildWith([], toolLoopFixture(), { system: "Be brief." });
    expect(result.report.entries.map((entry) => [entry.id, entry.messageIndex, entry.reason])).toEqual([
      ["u1", 1, "sent in message 1"],
      ["a1", 2, "sent in message 2"],
      ["t1", 3, "sent in message 3"],
      ["t2", 4, "sent in message 4"],
      ["a2", 5, "sent in message 5"],
    ]);
  });

  test("counts tokens with OpenAI's per-message overhead", async () => {
    const result = await buildWith([], [{ id: "u", type: "user", text: "hello world" }], { system: "Be brief." });
    // 3 to prime the reply; each message 3 + role + content ("Be brief." is 3 words-and-marks).
    const expected = 3 + (3 + 1 + 3) + (3 + 1 + 2);
    expect(result.tokenCount).toBe(expected);
    expect(countOpenAIChatTokens(result.request, wordTokenizer)).toBe(expected);
  });

  test("a rebuild after one new message counts only that message", async () => {
    const counted: string[] = [];
    const recording: Tokenizer = {
      ...wordTokenizer,
      count(text) {
        counted.push(text);
        return wordTokenizer.count(text);
      },
    };
    const pipeline = createPipeline();
    const history = toolLoopFixture();
    const first = await pipeline.build(history, { tokenizer: recording, system: "Be brief." });
    counted.length = 0;
    const next = await pipeline.build([...history, { id: "u9", type: "user", text: "one more thing" }], { tokenizer: recording, system: "Be brief." });
    expect(counted.filter((text) => text !== "user")).toEqual(["one more thing", "one more thing"]);
    expect(next.tokenCount).toBe(first.tokenCount + 3 + 1 + 3);
  });

  test("file data is sent as a data: URL, built from the media type when stored without one", async () => {
    const result = await buildWith([], [{ id: "u", type: "user", text: "read this", attachments: [{ type: "file", data: "JVBERi0x", mediaType: "application/pdf", filename: "a.pdf" }, { type: "file", fileId: "file-123" }] }]);
    expect(result.request.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "read this" },
        { type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0x", filename: "a.pdf" } },
        { type: "file", file: { file_id: "file-123" } },
      ],
    });
  });

  test("images count by detail, not by the length of their URL", async () => {
    const huge = `data:image/png;base64,${"A".repeat(300_000)}`;
    const low = await buildWith([], [{ id: "u", type: "user", text: "", attachments: [{ type: "image", url: huge, detail: "low" }] }]);
    const high = await buildWith([], [{ id: "u", type: "user", text: "", attachments: [{ type: "image", url: huge }] }]);
    // 3 to prime the reply, 3 for the message, 1 for the role, then the image.
    expect(low.tokenCount).toBe(3 + 3 + 1 + 85);
    expect(high.tokenCount).toBe(3 + 3 + 1 + 765);
  });

  test.for([
    { tool: { name: "my tool.v2" }, message: "a tool name is 1 to 64 letters, digits, '_' or '-'" },
    { tool: { name: "ok", parameters: { type: "string" } }, message: 'the arguments schema must have type "object"' },
  ])("tool definitions OpenAI would reject are refused: $tool.name", async ({ tool, message }) => {
    await expect(buildWith([], [{ id: "u", type: "user", text: "hi" }], { tools: [tool] })).rejects.toMatchObject({ name: "PluginOptionsError", message: expect.stringContaining(message) });
  });
});
