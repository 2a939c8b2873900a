import { checkRules, createPipeline, type ItemInput, PluginOptionsError } from "@ctxpipe/core";
import { buildWith, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { AnthropicMessagesRendererPlugin, type AnthropicMessagesRendererPluginOptions } from "./anthropic-messages-renderer-plugin.js";
import { anthropicMessagesRules } from "./anthropic-messages-rules.js";
import { anthropicMinimumCacheableTokens } from "./anthropic-minimum-cacheable-tokens.js";
import { countAnthropicMessagesTokens } from "./count-anthropic-messages-tokens.js";

/** About 1,200 words-and-marks: long enough for claude-sonnet-4-5 (1,024 tokens) to cache. */
const LONG_SYSTEM = "Follow the house style in every answer. ".repeat(130).trim();
const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];
/** The tool loop, answered, and a new user turn: the request ends on the user's side. */
const conversation = (): ItemInput[] => [...toolLoopFixture(), { id: "u2", type: "user", text: "Which one should we keep?" }];
const build = (options: AnthropicMessagesRendererPluginOptions = {}, items = conversation(), system = LONG_SYSTEM) =>
  buildWith([new AnthropicMessagesRendererPlugin(options)], items, { renderer: "anthropic", model: "claude-sonnet-4-5", system, tools });
const golden = (request: unknown) => `${JSON.stringify(request, null, 2)}\n`;

/** Every cache_control in the request, by where it is. */
function markers(request: unknown): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      for (const [index, entry] of value.entries()) walk(entry, `${path}[${index}]`);
    }
    else if (typeof value === "object" && value !== null) {
      for (const [key, entry] of Object.entries(value)) {
        if (key === "cache_control") found[path] = entry;
        else walk(entry, path === "" ? key : `${path}.${key}`);
      }
    }
  };
  walk(request, "");
  return found;
}

describe("Anthropic prompt cache breakpoints", () => {
  test("a cached request (golden file): after the system prompt and at the end of the last two messages; the short tool list alone is not marked", async () => {
    const result = await build();
    await expect(golden(result.request)).toMatchFileSnapshot("__fixtures__/tool-loop-cached.anthropic.json");
    expect(checkRules(anthropicMessagesRules, result.request, { model: "claude-sonnet-4-5" })).toEqual([]);
    const count = result.request.messages.length;
    expect(markers(result.request)).toEqual({
      "system[0]": { type: "ephemeral" },
      [`messages[${count - 2}].content[0]`]: { type: "ephemeral" },
      [`messages[${count - 1}].content[0]`]: { type: "ephemeral" },
    });
    const toolTokens = wordTokenizer.count(JSON.stringify(result.request.tools));
    expect(result.report.cache.breakpoints).toEqual([
      { part: "tools", prefixTokens: toolTokens, placed: false, reason: `the request up to here is ${toolTokens} tokens, below the 1024 tokens the model caches at least` },
      { part: "system", prefixTokens: toolTokens + wordTokenizer.count(LONG_SYSTEM), placed: true },
      { part: "messages", messageIndex: count - 2, prefixTokens: expect.any(Number), placed: true },
      // The last breakpoint ends the whole request: its prefix is all of it.
      { part: "messages", messageIndex: count - 1, prefixTokens: result.tokenCount, placed: true },
    ]);
  });

  test("the tool definitions get their own breakpoint when they alone are long enough", async () => {
    const longTools = [{ ...tools[0]!, description: LONG_SYSTEM }];
    const result = await buildWith([new AnthropicMessagesRendererPlugin()], conversation(), { renderer: "anthropic", model: "claude-sonnet-4-5", system: "Be brief.", tools: longTools });
    expect(result.request.tools?.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(Object.keys(markers(result.request))).toHaveLength(4);
    expect(checkRules(anthropicMessagesRules, result.request, { model: "claude-sonnet-4-5" })).toEqual([]);
  });

  test("a conversation shorter than the model's minimum gets no breakpoint, and the report says why", async () => {
    const result = await build({}, [{ id: "u", type: "user", text: "hello world" }], "Be brief.");
    expect(markers(result.request)).toEqual({});
    expect(result.request.system).toBe("Be brief.");
    expect(result.report.cache.breakpoints?.map((breakpoint) => [breakpoint.part, breakpoint.placed, breakpoint.reason])).toEqual([
      ["tools", false, expect.stringMatching(/below the 1024 tokens the model caches at least$/)],
      ["system", false, expect.stringMatching(/below the 1024/)],
      ["messages", false, expect.stringMatching(/below the 1024/)],
    ]);
  });

  test("a tokenizer that counts more tokens than the text has bytes does not place a breakpoint the rules know to be too short", async () => {
    // Ten tokens a character: a 123-character question passes 1,024 tokens in under 200 bytes.
    const inflating = { specificationVersion: "v1", name: "inflating", exact: false, count: (text: string) => text.length * 10 } as const;
    const result = await buildWith([new AnthropicMessagesRendererPlugin()], [{ id: "u", type: "user", text: "hello world, how are you today? ".repeat(4).trim() }], {
      renderer: "anthropic",
      model: "claude-sonnet-4-5",
      tokenizer: inflating,
    });
    expect(markers(result.request)).toEqual({});
    expect(result.report.cache.breakpoints).toEqual([
      { part: "messages", messageIndex: 0, prefixTokens: result.tokenCount, placed: false, reason: expect.stringMatching(/^the request up to here is \d+ bytes, below the 1024 tokens/) },
    ]);
    expect(checkRules(anthropicMessagesRules, result.request, { model: "claude-sonnet-4-5" })).toEqual([]);
  });

  test("the minimum is the model's: claude-opus-4-5 caches 4,096 tokens and more, so the same request gets no breakpoint there", async () => {
    expect(anthropicMinimumCacheableTokens("claude-opus-4-5-20251101")).toBe(4096);
    const result = await buildWith([new AnthropicMessagesRendererPlugin()], conversation(), { renderer: "anthropic", model: "claude-opus-4-5", system: LONG_SYSTEM, tools });
    expect(markers(result.request)).toEqual({});
  });

  test.for([
    { model: "claude-sonnet-4-5", expected: 1024 },
    { model: "claude-sonnet-4-6", expected: 2048 },
    { model: "claude-haiku-4-5-20251001", expected: 4096 },
    { model: "claude-3-5-haiku-latest", expected: 2048 },
    { model: "claude-opus-5", expected: 512 },
    { model: "claude-opus-4-1", expected: 1024 },
    { model: "some-new-model", expected: 1024 },
  ])("minimum cacheable length of $model: $expected", ({ model, expected }) => {
    expect(anthropicMinimumCacheableTokens(model)).toBe(expected);
  });

  test("cache: false sends no breakpoint and keeps the system prompt a string", async () => {
    const result = await build({ cache: false });
    expect(markers(result.request)).toEqual({});
    expect(result.request.system).toBe(LONG_SYSTEM);
    expect(result.report.cache.breakpoints).toBeUndefined();
  });

  test('ttl "1h" is set on every breakpoint, which keeps them in a valid order', async () => {
    const result = await build({ cache: { ttl: "1h" } });
    const found = Object.values(markers(result.request));
    expect(found).toHaveLength(3);
    for (const marker of found) expect(marker).toEqual({ type: "ephemeral", ttl: "1h" });
    expect(checkRules(anthropicMessagesRules, result.request, { model: "claude-sonnet-4-5" })).toEqual([]);
  });

  test("breakpoints add no tokens: the count is the same with and without them, and equals a fresh count of the request sent", async () => {
    const cached = await build();
    const plain = await build({ cache: false });
    expect(cached.tokenCount).toBe(plain.tokenCount);
    expect(countAnthropicMessagesTokens(cached.request, wordTokenizer)).toBe(cached.tokenCount);
  });

  test("the next turn reuses the whole previous request although its breakpoints moved, and the earlier request is left as it was", async () => {
    const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin()] });
    const options = { renderer: "anthropic", model: "claude-sonnet-4-5", tokenizer: wordTokenizer, system: LONG_SYSTEM, tools } as const;
    const first = await pipeline.build(conversation(), options);
    const sent = structuredClone(first.request);
    const next = await pipeline.build([...conversation(), { id: "a3", type: "assistant", text: "Keep b.json." }, { id: "u3", type: "user", text: "Thanks." }], options);
    expect(first.request).toEqual(sent);
    expect(next.report.cache).toMatchObject({ compared: true, breaksAt: undefined, sameMessages: first.request.messages.length, reusableTokens: first.tokenCount, previousTokens: first.tokenCount });
    // The message that ended the first request lost its breakpoint in the next one: the cache matches content, not markers.
    expect(next.request.messages[first.request.messages.length - 1]).not.toEqual(first.request.messages.at(-1));
  });

  test("a changed system prompt leaves only the tool definitions reusable", async () => {
    const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin()] });
    const options = { renderer: "anthropic", model: "claude-sonnet-4-5", tokenizer: wordTokenizer, tools } as const;
    const first = await pipeline.build(conversation(), { ...options, system: LONG_SYSTEM });
    const next = await pipeline.build(conversation(), { ...options, system: `${LONG_SYSTEM} Be brief.` });
    expect(next.report.cache).toMatchObject({ breaksAt: "system", reusableTokens: wordTokenizer.count(JSON.stringify(first.request.tools)), previousTokens: first.tokenCount });
  });

  test("bad cache options are refused, naming the option", () => {
    expect(() => new AnthropicMessagesRendererPlugin({ cache: { ttl: "2h" } as never })).toThrow(PluginOptionsError);
    expect(() => new AnthropicMessagesRendererPlugin({ cache: { ttl: "2h" } as never })).toThrow(/cache/);
    expect(() => new AnthropicMessagesRendererPlugin({ cache: true as never })).toThrow(/cache/);
  });
});
