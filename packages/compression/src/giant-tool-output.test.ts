// Issue 20's "Done when": a 2 MB tool result in the newest turn, a 16,000-token budget and the default
// chain build for every provider, keeping the user's question and the assistant's answer, within the
// budget counted exactly with o200k, provider-valid, and with every change in the report.
import { type BuildResult, checkRules, createPipeline, type ItemInput, type Pipeline } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { PROVIDERS } from "@ctxpipe/renderers/testing";
import { TokenizerPlugin } from "@ctxpipe/tokenizers";
import { XmlRendererPlugin } from "@ctxpipe/xml-renderer";
import { beforeAll, describe, expect, test } from "vitest";
import { giantOutputConversation } from "./__fixtures__/giant-output.js";
import { CompressionPlugin, DEFAULT_STRATEGIES } from "./index.js";

const BUDGET = 16_000;
const RENDERERS = ["openai", "openai-responses", "anthropic", "gemini", "xml"] as const;
type Renderer = (typeof RENDERERS)[number];
const TIMEOUT = 120_000;

function pipeline(): Pipeline {
  return createPipeline({
    plugins: [new TokenizerPlugin(), new CompressionPlugin({ strategies: [...DEFAULT_STRATEGIES] }), new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin(), new XmlRendererPlugin()],
  });
}

const build = (on: Pipeline, items: ReadonlyArray<ItemInput>, renderer: Renderer) =>
  on.build(items, { renderer: renderer as "openai", model: "gpt-4o", maxTokens: BUDGET, reserveOutputTokens: 0, system: "You are a careful engineer." }) as Promise<BuildResult<unknown>>;

describe("a 2 MB tool result in the newest turn, a 16,000-token budget, the default chain", () => {
  const items = giantOutputConversation(2_000_000);
  const output = (items.find((item) => item.id === "t-newest") as { output: string }).output;
  const results = new Map<Renderer, BuildResult<unknown>>();

  beforeAll(async () => {
    expect(output.length).toBeGreaterThanOrEqual(2_000_000);
    const shared = pipeline();
    for (const renderer of RENDERERS) results.set(renderer, await build(shared, items, renderer));
  }, TIMEOUT);

  test.for(RENDERERS)("%s: within budget (exact o200k), the question and the answer sent, the output cut and reported", (renderer) => {
    const result = results.get(renderer)!;
    expect(result.tokenCountExact).toBe(true);
    expect(result.tokenCount).toBeLessThanOrEqual(BUDGET);
    expect(result.report.tokenizer.name).toBe("o200k_base");
    const sent = JSON.stringify(result.request);
    for (const id of ["u-newest", "c-newest", "t-newest", "a-newest"]) expect(result.includedIds).toContain(id);
    expect(sent).toContain("Read the whole deploy log and tell me what broke.");
    expect(sent).toContain("The deploy broke on the résumé upload: worker 3 timed out.");
    const entry = result.report.entries.find((candidate) => candidate.id === "t-newest")!;
    expect(entry).toMatchObject({ decision: "truncated", stage: "compress", plugin: "truncate-tool-results" });
    expect(entry.reason).toMatch(/^tool result over its cap of 4000 tokens: its head and tail kept, [\d]+ tokens \([\d]+ characters\) cut from the middle, kept whole as ctx_[0-9a-f]{16}$/);
    // The head and the tail are the output's own.
    expect(sent).toContain(JSON.stringify(output.slice(0, 200)).slice(1, -1));
    expect(sent).toContain(JSON.stringify(output.slice(-200)).slice(1, -1));
  });

  test.for(PROVIDERS.map((provider) => provider.renderer))("%s: the request breaks none of the provider's rules", (renderer) => {
    const provider = PROVIDERS.find((candidate) => candidate.renderer === renderer)!;
    expect(checkRules(provider.rules, results.get(renderer)!.request, { model: provider.model })).toEqual([]);
  });

  test.for(RENDERERS)("%s: nothing is left out or changed without a report entry saying why", (renderer) => {
    const result = results.get(renderer)!;
    items.forEach((item, index) => {
      const entry = result.report.entries[index]!;
      expect(entry.id).toBe(item.id);
      if (entry.decision !== "kept") expect(entry.reason.length).toBeGreaterThan(0);
    });
  });

  test.for(RENDERERS)("%s: golden request", async (renderer) => {
    await expect(`${JSON.stringify(results.get(renderer)!.request, null, 2)}\n`).toMatchFileSnapshot(`__fixtures__/giant-tool-output.${renderer}.json`);
  });

  test("a reused pipeline sends what a fresh one does, byte for byte", { timeout: TIMEOUT }, async () => {
    const fresh = await build(pipeline(), items, "openai");
    expect(JSON.stringify(fresh.request)).toBe(JSON.stringify(results.get("openai")!.request));
  });

  test("without truncate-tool-results, the same turn does not fit: the budget is exceeded", { timeout: TIMEOUT }, async () => {
    const without = createPipeline({ plugins: [new TokenizerPlugin(), new CompressionPlugin({ strategies: ["clear-tool-results", "sliding-window"] })] });
    await expect(build(without, items, "openai")).rejects.toMatchObject({ code: "BUDGET_EXCEEDED" });
  });
});
