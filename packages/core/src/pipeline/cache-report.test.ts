import { describe, expect, test } from "vitest";
import type { ItemInput } from "../model/item.js";
import { conversationFixture, toolLoopFixture, wordTokenizer } from "../testing/index.js";
import { countOpenAIChatMessageTokens, REPLY_PRIMING } from "../renderers/openai-chat/count-openai-chat-tokens.js";
import { comparePrefix } from "./compare-prefix.js";
import { createPipeline } from "./pipeline.js";

const options = { tokenizer: wordTokenizer, system: "Be brief." } as const;

describe("report.cache: where the request stops matching the previous build's", () => {
  test("a pipeline's first build has nothing to compare with", async () => {
    const result = await createPipeline().build(conversationFixture(), options);
    expect(result.report.cache).toEqual({ compared: false, breaksAt: undefined, sameMessages: 0, previousMessages: 0, reusableTokens: 0, previousTokens: 0 });
  });

  test("appending a message keeps the whole previous request as the prefix", async () => {
    const pipeline = createPipeline();
    // Ends on a user message: a history ending on the assistant gets a synthesized turn, which the next one replaces.
    const history: ItemInput[] = [...conversationFixture(), { id: "u4", type: "user", text: "And Spain?" }];
    const first = await pipeline.build(history, options);
    const second = await pipeline.build([...history, { id: "a4", type: "assistant", text: "Madrid." }, { id: "u5", type: "user", text: "Thanks." }], options);
    // The whole previous request is reusable: everything but the reply priming, which is not a cached part.
    const previousTokens = first.tokenCount - REPLY_PRIMING;
    expect(second.report.cache).toEqual({ compared: true, breaksAt: undefined, sameMessages: first.request.messages.length, previousMessages: first.request.messages.length, reusableTokens: previousTokens, previousTokens });
  });

  test("dropping the oldest turn breaks the prefix right after the system message", async () => {
    const pipeline = createPipeline();
    const history = conversationFixture();
    const first = await pipeline.build(history, options);
    const second = await pipeline.build(
      history.filter((item) => item.id !== "u1" && item.id !== "a1"),
      options,
    );
    // Only the system message is reused, out of the whole previous request.
    expect(second.report.cache).toMatchObject({
      compared: true,
      breaksAt: "messages",
      sameMessages: 1,
      reusableTokens: countOpenAIChatMessageTokens(first.request.messages[0]!, wordTokenizer),
      previousTokens: first.tokenCount - REPLY_PRIMING,
    });
  });

  test("a changed system prompt breaks at the first message for OpenAI, where the system prompt is a message", async () => {
    const pipeline = createPipeline();
    await pipeline.build(conversationFixture(), options);
    const second = await pipeline.build(conversationFixture(), { ...options, system: "Be thorough." });
    expect(second.report.cache).toMatchObject({ compared: true, breaksAt: "messages", sameMessages: 0 });
  });

  test("changed tool definitions break the cache before any message", async () => {
    const pipeline = createPipeline();
    const tool = { name: "read_file", parameters: { type: "object", properties: {} } };
    await pipeline.build(toolLoopFixture(), { ...options, tools: [tool] });
    const same = await pipeline.build(toolLoopFixture(), { ...options, tools: [tool] });
    expect(same.report.cache.breaksAt).toBeUndefined();
    const changed = await pipeline.build(toolLoopFixture(), { ...options, tools: [{ ...tool, description: "Reads a file." }] });
    expect(changed.report.cache.breaksAt).toBe("tools");
    expect(changed.report.cache.reusableTokens).toBe(0);
    expect(same.report.cache.reusableTokens).toBe(same.tokenCount - REPLY_PRIMING);
  });

  test("the same input built twice compares equal even when messages are new objects", async () => {
    const pipeline = createPipeline();
    const copy = (): ItemInput[] => structuredClone(conversationFixture());
    const first = await pipeline.build(copy(), options);
    const second = await pipeline.build(copy(), options);
    expect(second.report.cache).toMatchObject({ compared: true, breaksAt: undefined, sameMessages: first.request.messages.length, previousMessages: first.request.messages.length });
  });

  test("parts compare as JSON bytes would: key order and values matter, undefined members do not", () => {
    const prefix = (messages: unknown[], system?: unknown) => ({ messages, system });
    expect(comparePrefix(prefix([{ a: 1, b: 2 }]), prefix([{ a: 1, b: 2, c: undefined }])).breaksAt).toBeUndefined();
    expect(comparePrefix(prefix([{ a: 1, b: 2 }]), prefix([{ b: 2, a: 1 }]))).toMatchObject({ breaksAt: "messages", sameMessages: 0 });
    expect(comparePrefix(prefix([{ a: [1, 2] }, "x"]), prefix([{ a: [1, 2] }, "y"]))).toMatchObject({ breaksAt: "messages", sameMessages: 1 });
    expect(comparePrefix(prefix(["x"], "s1"), prefix(["x"], "s2")).breaksAt).toBe("system");
    expect(comparePrefix(undefined, prefix(["x"])).compared).toBe(false);
  });

  test.for([
    { case: "a break in the messages reuses the parts before it and the equal messages", current: ["a", "b", "z"], system: "s", expected: { reusableTokens: 2 + 3 + 10 + 20, previousTokens: 2 + 3 + 60 } },
    { case: "a changed system prompt reuses the tool definitions only", current: ["a", "b", "c"], system: "other", expected: { reusableTokens: 2, previousTokens: 65 } },
    { case: "a request that starts with the whole previous one reuses all of it", current: ["a", "b", "c", "d"], system: "s", expected: { reusableTokens: 65, previousTokens: 65 } },
  ])("reusableTokens: $case", ({ current, system, expected }) => {
    const tokens = (count: number) => ({ tools: 2, system: 3, messagesBefore: [0, 10, 30, 60, 100].slice(0, count + 1) });
    const previous = { tools: ["t"], system: "s", messages: ["a", "b", "c"], tokens: tokens(3) };
    expect(comparePrefix(previous, { tools: ["t"], system, messages: current, tokens: tokens(current.length) })).toMatchObject(expected);
  });

  test("without the renderer's token counts there are no token fields; breakpoints are passed on", () => {
    const breakpoints = [{ part: "system" as const, prefixTokens: 2048, placed: true }];
    expect(comparePrefix({ messages: ["a"] }, { messages: ["a"] })).toEqual({ compared: true, breaksAt: undefined, sameMessages: 1, previousMessages: 1 });
    expect(comparePrefix(undefined, { messages: ["a"], breakpoints }).breakpoints).toBe(breakpoints);
  });
});
