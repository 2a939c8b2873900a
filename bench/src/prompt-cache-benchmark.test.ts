import type { CacheBreakpoint } from "@ctxpipe/core";
import type { AnthropicMessagesRequest } from "@ctxpipe/renderers";
import { createTokenizer } from "@ctxpipe/tokenizers";
import { describe, expect, test } from "vitest";
import { AnthropicCacheSimulation, geminiCachedTokens, openAICachedTokens, printPromptCacheBenchmark } from "./prompt-cache-benchmark.js";

const text = (value: string, marked = false) => ({ type: "text" as const, text: value, ...(marked ? { cache_control: { type: "ephemeral" as const } } : {}) });

/** A request of one long first message, then a user message of `blocks` text blocks, the last marked. */
function request(blocks: number): AnthropicMessagesRequest {
  const messages: AnthropicMessagesRequest["messages"] = [{ role: "user", content: [text("a long question", true)] }, { role: "assistant", content: [text("an answer")] }];
  if (blocks > 0) messages.push({ role: "user", content: Array.from({ length: blocks }, (_, index) => text(`part ${index}`, index === blocks - 1)) });
  return { max_tokens: 1, messages };
}

const at = (messageIndex: number, prefixTokens: number): CacheBreakpoint => ({ part: "messages", messageIndex, prefixTokens, placed: true });

describe("the prompt cache simulations", () => {
  test.for([
    { shared: 0, expected: 0 },
    { shared: 1023, expected: 0 },
    { shared: 1024, expected: 1024 },
    { shared: 1151, expected: 1024 },
    { shared: 1152, expected: 1152 },
    { shared: 5000, expected: 4992 },
  ])("openai caches $shared shared tokens as $expected (1,024 or more, in 128-token steps)", ({ shared, expected }) => {
    expect(openAICachedTokens(shared)).toBe(expected);
  });

  test("gemini caches a shared prefix of 1,024 tokens or more, whole", () => {
    expect([geminiCachedTokens(1023), geminiCachedTokens(1024), geminiCachedTokens(3000)]).toEqual([0, 1024, 3000]);
  });

  test.for([
    { blocks: 19, expected: 2000, why: "19 new blocks: the entry 20 blocks back is found" },
    { blocks: 20, expected: 0, why: "20 new blocks and the answer: the entry is 21 blocks back, past the lookback" },
  ])("anthropic reads back an earlier breakpoint's prefix within 20 blocks: $why", ({ blocks, expected }) => {
    const cache = new AnthropicCacheSimulation("claude-sonnet-4-5");
    expect(cache.send(request(0), [at(0, 2000)])).toBe(0);
    expect(cache.send(request(blocks), [at(2, 2000 + blocks * 10)])).toBe(expected);
  });

  test("anthropic writes nothing for a prefix below the model's minimum, and the marker itself is not content", () => {
    const cache = new AnthropicCacheSimulation("claude-sonnet-4-5");
    cache.send(request(0), [at(0, 1000)]);
    expect(cache.send(request(0), [at(0, 1000)])).toBe(0);
    cache.send(request(0), [at(0, 1500)]);
    const unmarked = request(0);
    unmarked.messages[0] = { role: "user", content: [text("a long question")] };
    // The same content with the breakpoint further on: the prefix up to message 0 is read from the cache.
    expect(cache.send({ ...unmarked, messages: [...unmarked.messages, { role: "user", content: [text("next", true)] }] }, [at(2, 1600)])).toBe(1500);
  });
});

describe("printPromptCacheBenchmark", () => {
  test("prints the rules and, per provider, the cache hits: Anthropic only with breakpoints, every share within 0–100%", async () => {
    const lines: string[] = [];
    const [figures] = await printPromptCacheBenchmark((line) => lines.push(line), createTokenizer("gpt-4o"), { turns: 12, budgets: [20_000] });
    expect(lines.join("\n")).toContain("at most 20 blocks before it");
    expect(lines.join("\n")).toContain("12 model calls of a generated coding agent, the default compression chain on, within 20,000 tokens");
    const [withBreakpoints, without, openai, responses, gemini] = figures!.rows;
    expect(withBreakpoints).toMatchObject({ provider: "anthropic", label: "ctxpipe's cache_control breakpoints" });
    expect(withBreakpoints!.cachedTokens).toBeGreaterThan(0);
    expect(without).toMatchObject({ provider: "anthropic", cachedTokens: 0 });
    // The breakpoints add no input tokens.
    expect(without!.inputTokens).toBe(withBreakpoints!.inputTokens);
    expect(openai!.cachedTokens).toBeGreaterThan(0);
    expect(responses).toMatchObject({ provider: "openai-responses" });
    expect(responses!.cachedTokens).toBeGreaterThan(0);
    expect(gemini!.cachedTokens).toBeGreaterThan(0);
    for (const row of figures!.rows) expect(row.cachedTokens).toBeLessThanOrEqual(row.inputTokens);
    expect(lines.filter((line) => /^ {3}(anthropic|openai|openai-responses|gemini) /.test(line))).toHaveLength(5);
  }, 120_000);
});
