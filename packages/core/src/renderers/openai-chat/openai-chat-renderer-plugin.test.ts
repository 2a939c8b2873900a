import { describe, expect, test } from "vitest";
import { ContextValidationError } from "../../errors/context-validation-error.js";
import type { Item } from "../../model/item.js";
import type { PipelinePlugin } from "../../pipeline/pipeline-hooks.js";
import { createPipeline } from "../../pipeline/pipeline.js";
import { STAGE } from "../../pipeline/stage.js";
import type { Tokenizer } from "../../spec/tokenizer.js";
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "../../testing/index.js";
import { fitPromptCacheKey } from "../../text/prompt-cache-key.js";
import { countOpenAIChatTokens, countOpenAIChatToolTokens } from "./count-openai-chat-tokens.js";
import { OpenAIChatRendererPlugin } from "./openai-chat-renderer-plugin.js";

describe("OpenAIChatRendererPlugin", () => {
  test("renders every item type (golden file)", async () => {
    const result = await buildWith([], everyItemTypeFixture(), { system: "You are a careful engineer.", model: "gpt-4o" });
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

  test("renders a cached request: prompt_cache_key from the build's promptCacheKey (golden file)", async () => {
    const result = await buildWith([], toolLoopFixture(), { system: "Be brief.", model: "gpt-4o", promptCacheKey: "conversation-42" });
    await expect(`${JSON.stringify(result.request, null, 2)}\n`).toMatchFileSnapshot("__fixtures__/tool-loop-cached.openai.json");
    expect(result.report.violations).toEqual([]);
  });

  test.for([
    { case: "no key anywhere: none is sent", plugin: {}, build: {}, expected: undefined },
    { case: "the renderer's option", plugin: { promptCacheKey: "app-wide" }, build: {}, expected: "app-wide" },
    { case: "the build's option, over the renderer's", plugin: { promptCacheKey: "app-wide" }, build: { promptCacheKey: "conversation-42" }, expected: "conversation-42" },
  ])("prompt_cache_key: $case", async ({ plugin, build, expected }) => {
    const result = await buildWith([new OpenAIChatRendererPlugin(plugin)], [{ id: "u", type: "user", text: "hi" }], build);
    expect(result.request.prompt_cache_key).toBe(expected);
    expect("prompt_cache_key" in result.request).toBe(expected !== undefined);
    // The key routes the request; it is not part of the prompt, so it costs no tokens.
    expect(result.tokenCount).toBe(countOpenAIChatTokens(result.request, wordTokenizer));
  });

  test("a prompt cache key over 64 characters (a long conversation id) is sent shortened, the same every build, and breaks no rule", async () => {
    const conversation = `tenant-acme-corp/workspace-research/conversation-${"0d5e1a7c-33f1-4f4e-9a52-8f0c2b7d9e11"}`;
    const items = [{ id: "u", type: "user" as const, text: "hi" }];
    const first = await buildWith([], items, { promptCacheKey: conversation, validation: "throw" });
    const again = await buildWith([new OpenAIChatRendererPlugin({ promptCacheKey: conversation })], items, { validation: "throw" });
    const sibling = await buildWith([], items, { promptCacheKey: `${conversation}-fork` });
    expect(first.request.prompt_cache_key).toBe(fitPromptCacheKey(conversation));
    expect(first.request.prompt_cache_key).toHaveLength(64);
    expect(conversation.startsWith(first.request.prompt_cache_key!.slice(0, 47))).toBe(true);
    expect(again.request.prompt_cache_key).toBe(first.request.prompt_cache_key);
    expect(sibling.request.prompt_cache_key).not.toBe(first.request.prompt_cache_key);
    expect(first.report.violations).toEqual([]);
  });

  test("an empty prompt cache key is refused, naming the option", async () => {
    expect(() => new OpenAIChatRendererPlugin({ promptCacheKey: "" })).toThrow(/promptCacheKey/);
    await expect(buildWith([], [{ id: "u", type: "user", text: "hi" }], { promptCacheKey: "" })).rejects.toThrow(/promptCacheKey/);
  });

  test("uses the developer role when asked (o1 and newer)", async () => {
    const result = await buildWith([new OpenAIChatRendererPlugin({ systemRole: "developer" })], [{ id: "u", type: "user", text: "hi" }], { system: "Rules." });
    expect(result.request.messages[0]).toEqual({ role: "developer", content: "Rules." });
  });

  test("stored system messages: the leading one is the prompt, a later one is sent where it was, in the developer role too", async () => {
    const items = [
      { id: "s0", type: "system", text: "You are terse." },
      { id: "u1", type: "user", text: "Hi." },
      { id: "a1", type: "assistant", text: "Hello." },
      { id: "s1", type: "system", text: "From now on answer in French." },
      { id: "u2", type: "user", text: "How are you?" },
    ] as const;
    const result = await buildWith([new OpenAIChatRendererPlugin({ systemRole: "developer" })], items);
    expect(result.request.messages).toEqual([
      { role: "developer", content: "You are terse." },
      { role: "user", content: "Hi." },
      { role: "assistant", content: "Hello." },
      { role: "developer", content: "From now on answer in French." },
      { role: "user", content: "How are you?" },
    ]);
    expect(result.report.entries.find((entry) => entry.id === "s1")).toMatchObject({ decision: "kept", stage: "render", reason: "sent in message 3", messageIndex: 3 });
  });

  test("a blank system message is never sent: the renderer leaves it out and says why", async () => {
    // The stages before would drop it; without them the renderer still keeps the request valid (OAI-012).
    const pipeline = createPipeline({ defaults: { repairOrphans: false, insertSystem: false, validate: false } });
    const result = await pipeline.build([{ id: "u", type: "user", text: "Hi." }, { id: "s", type: "system", text: " \u200B" }, { id: "u2", type: "user", text: "Bye." }], { tokenizer: wordTokenizer });
    expect(result.request.messages).toEqual([{ role: "user", content: "Hi." }, { role: "user", content: "Bye." }]);
    expect(result.report.entries[1]).toMatchObject({ decision: "dropped", stage: "render", reason: "the system message is empty: nothing to send" });
  });

  test("uses the developer role by itself for a model that rejects system (o1-mini), on a reused pipeline too", async () => {
    const counted: string[] = [];
    const recording: Tokenizer = {
      ...wordTokenizer,
      count(text) {
        counted.push(text);
        return wordTokenizer.count(text);
      },
    };
    const pipeline = createPipeline();
    const items = [{ id: "u", type: "user" as const, text: "hi" }];
    const gpt = await pipeline.build(items, { tokenizer: recording, system: "Rules.", model: "gpt-4o" });
    const o1 = await pipeline.build(items, { tokenizer: recording, system: "Rules.", model: "o1-mini" });
    expect(gpt.request.messages[0]).toEqual({ role: "system", content: "Rules." });
    expect(o1.request.messages[0]).toEqual({ role: "developer", content: "Rules." });
    // The cached count of the system message is per role: the developer message was counted anew.
    expect(counted).toContain("developer");
  });

  test("sends nothing empty: no blank assistant message, no blank text part, null content for calls only", async () => {
    // Only the renderer: the default stages that would drop or repair these first are off.
    const result = await createPipeline({ defaults: { filter: false, failedCalls: false, repairOrphans: false, validate: false } }).build(
      [
        { id: "u1", type: "user", text: " ", attachments: [{ type: "image", url: "https://example.test/a.png" }] },
        { id: "a1", type: "assistant", text: "\n" },
        { id: "e1", type: "error", text: "" },
        { id: "u2", type: "user", text: "Read it." },
        { id: "a2", type: "assistant", text: " ", toolCalls: [{ id: "call_a", name: "read_file", arguments: "{}" }] },
        { id: "t1", type: "tool-result", callId: "call_a", output: "ok" },
      ],
      // Throws if the request breaks any of OpenAI's rules.
      { tokenizer: wordTokenizer, validation: "throw" },
    );
    expect(result.request.messages).toEqual([
      { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.test/a.png" } }] },
      { role: "user", content: "Read it." },
      { role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "read_file", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_a", content: "ok" },
    ]);
    for (const id of ["a1", "e1"]) expect(result.report.entries.find((entry) => entry.id === id)).toMatchObject({ decision: "dropped", stage: "render" });
  });

  test("renders tool definitions in OpenAI's format and counts them", async () => {
    const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
    const withTools = await buildWith([], [{ id: "u", type: "user", text: "hi" }], { tools });
    const without = await buildWith([], [{ id: "u", type: "user", text: "hi" }]);
    expect(withTools.request.tools).toEqual([{ type: "function", function: tools[0] }]);
    // OpenAI's tool accounting: 12 for the tool section, 7 per function plus "name:description"
    // without its final period, 3 for the properties, 3 per property plus "key:type:description".
    const expected = 12 + 7 + wordTokenizer.count("read_file:Read a file") + 3 + 3 + wordTokenizer.count("path:string:");
    expect(withTools.tokenCount - without.tokenCount).toBe(expected);
    expect(countOpenAIChatToolTokens(withTools.request.tools ?? [], wordTokenizer)).toBe(expected);
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
    // Ends on a user message, so that no stage adds one to the first build only.
    const history = [...toolLoopFixture(), { id: "u8", type: "user" as const, text: "Thanks." }];
    const first = await pipeline.build(history, { tokenizer: recording, system: "Be brief." });
    counted.length = 0;
    const next = await pipeline.build([...history, { id: "u9", type: "user", text: "one more thing" }], { tokenizer: recording, system: "Be brief." });
    // Once, for its message; the report counts items only when it is read, from the same cache.
    expect(counted.filter((text) => text !== "user")).toEqual(["one more thing"]);
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

  describe("checks the request it built against OpenAI's rules", () => {
    // Breaks the sequence after repair-orphans ran: a result for a call nobody made.
    const appendOrphanResult: PipelinePlugin = {
      name: "AppendOrphanResult",
      apply(pipeline) {
        pipeline.hooks.insertSystem.tap({ name: "AppendOrphanResult", stage: STAGE.LAST }, (items) => {
          const orphan: Item = { id: "orphan", type: "tool-result", role: "tool", callId: "call_unknown", output: "42", isError: false, kind: "tool", metadata: {} };
          return [...items, orphan];
        });
      },
    };
    // The item-level checks are off, so only the request rules can catch it.
    const pipeline = () => createPipeline({ defaults: { validate: false }, plugins: [appendOrphanResult] });
    const items = [{ id: "u", type: "user" as const, text: "What is 6 x 7?" }];
    const expected = {
      rule: "OAI-003",
      level: "error",
      phase: "request",
      plugin: "OpenAIChatRendererPlugin",
      itemId: "orphan",
      path: "messages[1].role",
      messageIndex: 1,
      providerError: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    };

    test('validation: "throw" fails the build, naming the rule and the item', async () => {
      const error = await pipeline()
        .build(items, { tokenizer: wordTokenizer, validation: "throw" })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextValidationError);
      expect((error as ContextValidationError).issues).toEqual([expect.objectContaining(expected)]);
      expect((error as ContextValidationError).message).toContain('OAI-003 [error] (item "orphan", messages[1].role)');
    });

    test('validation: "report" builds and lists the violation', async () => {
      const result = await pipeline().build(items, { tokenizer: wordTokenizer, validation: "report" });
      expect(result.request.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_unknown", content: "42" });
      expect(result.report.violations).toEqual([expect.objectContaining(expected)]);
    });

    test("a rule can be ignored", async () => {
      const result = await pipeline().build(items, { tokenizer: wordTokenizer, validation: { mode: "throw", ignore: ["OAI-003"] } });
      expect(result.report.violations).toEqual([]);
    });
  });
});
