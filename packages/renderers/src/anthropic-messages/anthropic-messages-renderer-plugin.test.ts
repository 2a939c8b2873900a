import { checkRules, createPipeline, type ItemInput, type Tokenizer } from "@ctxpipe/core";
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { AnthropicMessagesRendererPlugin } from "./anthropic-messages-renderer-plugin.js";
import { anthropicMessagesRules } from "./anthropic-messages-rules.js";
import { countAnthropicMessagesTokens } from "./count-anthropic-messages-tokens.js";

const plugin = () => new AnthropicMessagesRendererPlugin();
const hi: ItemInput[] = [{ id: "u", type: "user", text: "hello world" }];

/** A tool loop compacted in the middle, with signed, unsigned and redacted reasoning. */
function compactedConversationFixture(): ItemInput[] {
  return [
    { id: "u1", type: "user", text: "Fix the failing test." },
    {
      id: "a1",
      type: "assistant",
      text: "Running the tests.",
      reasoning: [{ text: "Start with the test runner.", signature: "sig_a1" }],
      toolCalls: [{ id: "toolu_1", name: "run_tests", arguments: "{}" }],
    },
    { id: "t1", type: "tool-result", callId: "toolu_1", toolName: "run_tests", output: "1 failed: parse.test.ts" },
    { id: "summary", type: "summary", text: "The user asked to keep the public API unchanged.", coveredIds: ["old1", "old2"] },
    { id: "u2", type: "user", text: "Go on." },
    {
      id: "a2",
      type: "assistant",
      text: "",
      reasoning: [{ text: "The parser drops the last line.", signature: "sig_a2" }, { text: "an unsigned thought" }, { text: "EncryptedPayload==", redacted: true }],
      toolCalls: [{ id: "toolu_2", name: "read_file", arguments: '{"path":"parse.ts"}' }],
    },
    { id: "t2", type: "tool-result", callId: "toolu_2", toolName: "read_file", output: "permission denied", isError: true },
    { id: "a3", type: "assistant", text: "I cannot read parse.ts.", reasoning: [{ text: "Say so.", signature: "sig_a3" }] },
    { id: "u3", type: "user", text: "Try again." },
  ];
}

const golden = (request: unknown) => `${JSON.stringify(request, null, 2)}\n`;

describe("AnthropicMessagesRendererPlugin", () => {
  test.for([
    { name: "every item type", file: "every-item-type.anthropic.json", items: everyItemTypeFixture, system: "You are a careful engineer." },
    { name: "a parallel tool loop", file: "tool-loop.anthropic.json", items: toolLoopFixture, system: "Be brief." },
    { name: "a compacted conversation with reasoning", file: "compacted-conversation.anthropic.json", items: compactedConversationFixture, system: "Be brief." },
  ])("renders $name (golden file) with no rule violation", async ({ file, items, system }) => {
    const result = await buildWith([plugin()], items(), { renderer: "anthropic", system, model: "claude-sonnet-4-5" });
    await expect(golden(result.request)).toMatchFileSnapshot(`__fixtures__/${file}`);
    expect(checkRules(anthropicMessagesRules, result.request)).toEqual([]);
    expect(result.report.repairedViolations).toEqual([]);
  });

  test("leaves thinking items out and says so", async () => {
    const result = await buildWith([plugin()], everyItemTypeFixture(), { renderer: "anthropic" });
    expect(result.report.entries.find((entry) => entry.id === "thinking")).toMatchObject({
      decision: "dropped",
      stage: "render",
      plugin: "AnthropicMessagesRendererPlugin",
      reason: "thinking items are not sent to the Anthropic Messages API: it takes back only signed reasoning",
    });
  });

  test("a mid-conversation summary becomes user-side text, merged into the tool-result turn after the results", async () => {
    const result = await buildWith([plugin()], compactedConversationFixture(), { renderer: "anthropic" });
    expect(result.request.system).toBeUndefined();
    expect(result.request.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "1 failed: parse.test.ts" },
        { type: "text", text: "[Previous conversation summary (2 messages compressed)]\n\nThe user asked to keep the public API unchanged." },
        { type: "text", text: "Go on." },
      ],
    });
  });

  test("reports which message carries each item; merged items share it, the system prompt has none", async () => {
    const result = await buildWith([plugin()], compactedConversationFixture(), { renderer: "anthropic", system: "Be brief." });
    expect(result.report.entries.map((entry) => [entry.id, entry.messageIndex])).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["t1", 2],
      ["summary", 2],
      ["u2", 2],
      ["a2", 3],
      ["t2", 4],
      ["a3", 5],
      ["u3", 6],
    ]);
    expect(result.metadata.outputCount).toBe(8);
  });

  test("renders tool definitions in Anthropic's format and counts them", async () => {
    const tools = [
      { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
      { name: "now", parameters: { properties: {} } },
    ];
    const withTools = await buildWith([plugin()], hi, { renderer: "anthropic", tools });
    const without = await buildWith([plugin()], hi, { renderer: "anthropic" });
    expect(withTools.request.tools).toEqual([
      { name: "read_file", description: "Read a file", input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
      { name: "now", input_schema: { properties: {}, type: "object" } },
    ]);
    expect(without.request.tools).toBeUndefined();
    expect(withTools.tokenCount - without.tokenCount).toBe(wordTokenizer.count(JSON.stringify(withTools.request.tools)));
  });

  test.for([
    { name: "4096 by default", plugins: [], options: {}, expected: 4096 },
    { name: "the build's reserveOutputTokens", plugins: [], options: { maxTokens: 100_000, reserveOutputTokens: 8192 }, expected: 8192 },
    { name: "the build's reserveOutputTokens given alone, with no window known (no budget)", plugins: [], options: { reserveOutputTokens: 8192 }, expected: 8192 },
    { name: "the maxTokens option first", plugins: [{ maxTokens: 1024 }], options: { maxTokens: 100_000, reserveOutputTokens: 8192 }, expected: 1024 },
  ])("max_tokens is $name", async ({ plugins, options, expected }) => {
    const result = await buildWith([new AnthropicMessagesRendererPlugin(...plugins)], hi, { renderer: "anthropic", ...options });
    expect(result.request.max_tokens).toBe(expected);
  });

  test("sets model only when the build names one", async () => {
    expect((await buildWith([plugin()], hi, { renderer: "anthropic", model: "claude-opus-4-8" })).request.model).toBe("claude-opus-4-8");
    expect((await buildWith([plugin()], hi, { renderer: "anthropic" })).request).not.toHaveProperty("model");
  });

  test("counts tokens: the system prompt, then each message's content and a 3-token overhead", async () => {
    const result = await buildWith([plugin()], hi, { renderer: "anthropic", system: "Be brief." });
    // "Be brief." is 3 words-and-marks; the message is 3 + "hello world" (2).
    expect(result.tokenCount).toBe(3 + (3 + 2));
    expect(result.tokenCountExact).toBe(true);
    expect(countAnthropicMessagesTokens(result.request, wordTokenizer)).toBe(result.tokenCount);
  });

  test("the cached count equals a fresh count of the request sent", async () => {
    const pipeline = createPipeline({ plugins: [plugin()] });
    const options = { renderer: "anthropic", tokenizer: wordTokenizer, system: "Be brief." } as const;
    await pipeline.build(compactedConversationFixture(), options);
    const result = await pipeline.build(compactedConversationFixture(), options);
    expect(result.tokenCount).toBe(countAnthropicMessagesTokens(result.request, wordTokenizer));
  });

  test("a cached count follows an item whose place changes: a system item leading, then inside the conversation", async () => {
    const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin({ laterSystemMessages: "user" })], defaults: { insertSystem: false } });
    const system: ItemInput = { id: "s", type: "system", text: "Answer in French." };
    const user: ItemInput = { id: "u", type: "user", text: "Hi." };
    const options = { renderer: "anthropic", tokenizer: wordTokenizer } as const;
    const leading = await pipeline.build([system, user], options);
    const inside = await pipeline.build([{ id: "u0", type: "user", text: "First." }, { id: "a0", type: "assistant", text: "Ok." }, system, user], options);
    expect(leading.request.system).toBe("Answer in French.");
    expect(inside.request.messages[2]).toEqual({ role: "user", content: [{ type: "text", text: "[System message]\nAnswer in French." }, { type: "text", text: "Hi." }] });
    expect(leading.tokenCount).toBe(countAnthropicMessagesTokens(leading.request, wordTokenizer));
    expect(inside.tokenCount).toBe(countAnthropicMessagesTokens(inside.request, wordTokenizer));
  });

  describe("stored system messages", () => {
    const prompt = { id: "s0", type: "system", text: "You are terse." } as const;
    const turn: ItemInput[] = [
      { id: "u1", type: "user", text: "Hi." },
      { id: "a1", type: "assistant", text: "Hello." },
    ];
    const french = { id: "s1", type: "system", text: "From now on answer in French." } as const;
    const newest = { id: "u2", type: "user", text: "How are you?" } as const;
    const messages = [
      { role: "user", content: [{ type: "text", text: "Hi." }] },
      { role: "assistant", content: [{ type: "text", text: "Hello." }] },
      { role: "user", content: [{ type: "text", text: "How are you?" }] },
    ];
    const SENT_AS_PROMPT = "sent as the system prompt: this build composes none, so the stored system messages are the prompt";
    const MOVED = "a system message inside the conversation, moved into the system prompt: the Anthropic Messages API takes system text only in its top-level system parameter";
    const REPLACED = "stored system message: this build composes its own system prompt, which replaces the stored ones";
    const NOT_INCLUDED = "stored system message: includeSystemPrompt is false, so no system prompt is sent";

    test.for([
      { case: "a leading one only: it is the system prompt", items: [prompt, ...turn, newest], build: {}, system: "You are terse.", decisions: [["s0", "merged", SENT_AS_PROMPT]] },
      {
        case: "a mid-conversation instruction: moved into the system prompt, after the leading one",
        items: [prompt, ...turn, french, newest],
        build: {},
        system: "You are terse.\n\nFrom now on answer in French.",
        decisions: [
          ["s0", "merged", SENT_AS_PROMPT],
          ["s1", "repaired", MOVED],
        ],
      },
      {
        case: "a composed prompt and stored ones: the composed prompt replaces them",
        items: [prompt, ...turn, french, newest],
        build: { system: "Be brief." },
        system: "Be brief.",
        decisions: [
          ["s0", "dropped", REPLACED],
          ["s1", "dropped", REPLACED],
        ],
      },
      {
        case: "includeSystemPrompt false: no system text at all",
        items: [prompt, ...turn, french, newest],
        build: { includeSystemPrompt: false },
        system: undefined,
        decisions: [
          ["s0", "dropped", NOT_INCLUDED],
          ["s1", "dropped", NOT_INCLUDED],
        ],
      },
    ] satisfies Array<{ case: string; items: ItemInput[]; build: { system?: string; includeSystemPrompt?: boolean }; system: string | undefined; decisions: string[][] }>)(
      "$case",
      async ({ items, build, system, decisions }) => {
        const result = await buildWith([plugin()], items, { renderer: "anthropic", model: "claude-sonnet-4-5", ...build });
        expect(result.request.system).toBe(system);
        expect(result.request.messages).toEqual(messages);
        expect(checkRules(anthropicMessagesRules, result.request)).toEqual([]);
        expect(decisions.map(([id]) => result.report.entries.find((entry) => entry.id === id)).map((entry) => [entry?.id, entry?.decision, entry?.reason])).toEqual(decisions);
        expect(result.metadata.systemPromptIncluded).toBe(system !== undefined);
      },
    );
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
    const pipeline = createPipeline({ plugins: [plugin()] });
    const history = compactedConversationFixture();
    const options = { renderer: "anthropic", tokenizer: recording, system: "Be brief." } as const;
    const first = await pipeline.build(history, options);
    counted.length = 0;
    const next = await pipeline.build([...history, { id: "a9", type: "assistant", text: "On it." }, { id: "u9", type: "user", text: "one more thing" }], options);
    // The pipeline's own per-item counter counts each new item once as well.
    expect(counted.filter((text) => text === "one more thing" || text === "On it.").length).toBe(2);
    expect(counted.filter((text) => text !== "one more thing" && text !== "On it.")).toEqual([]);
    expect(next.tokenCount).toBe(first.tokenCount + (3 + 3) + (3 + 3));
  });

  test("a request that breaks a rule is reported with the provider's error and the item concerned", async () => {
    // Without repair-orphans nothing appends a user turn after the final assistant message.
    const pipeline = createPipeline({ plugins: [plugin()], defaults: { repairOrphans: false } });
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "hi" },
      { id: "a", type: "assistant", text: "Hello. " },
    ];
    const result = await pipeline.build(items, { renderer: "anthropic", tokenizer: wordTokenizer, validation: "report" });
    expect(result.report.violations.filter((violation) => violation.rule.startsWith("ANT-"))).toMatchObject([
      {
        rule: "ANT-015",
        level: "strict",
        message: "the request ends on an assistant message",
        path: "messages[1].role",
        messageIndex: 1,
        itemId: "a",
        providerError: "This model does not support assistant message prefill. The conversation must end with a user message.",
      },
    ]);
    // The trailing space is trimmed rather than sent (ANT-016).
    expect(result.request.messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Hello." }] });
  });

  test("refuses options it does not know", () => {
    expect(() => new AnthropicMessagesRendererPlugin({ max_tokens: 5 } as never)).toThrow(expect.objectContaining({ name: "PluginOptionsError" }));
    expect(() => new AnthropicMessagesRendererPlugin({ maxTokens: 0 })).toThrow(expect.objectContaining({ name: "PluginOptionsError" }));
  });
});
