// A build's tokenCountExact: the tokenizer's exactness, unless the renderer says its count is an
// estimate whatever the tokenizer (RenderResult.tokenCountExact: false).
import { describe, expect, test } from "vitest";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { conversationFixture, wordTokenizer } from "../testing/index.js";
import { createPipeline } from "./pipeline.js";
import type { PipelinePlugin } from "./pipeline-hooks.js";

const estimatingTokenizer: Tokenizer = { ...wordTokenizer, name: "words, estimated", exact: false };

/** A renderer that counts one token an item and says what it knows of its count's exactness. */
function probeRenderer(tokenCountExact: boolean | undefined): PipelinePlugin {
  return {
    name: "ProbeRenderer",
    apply(host) {
      host.hooks.render.for("probe").tap({ name: "ProbeRenderer" }, (items) => ({
        request: { messages: items.map((item) => item.id) },
        tokenCount: items.length,
        messageCount: items.length,
        ...(tokenCountExact === undefined ? {} : { tokenCountExact }),
      }));
    },
  };
}

describe("tokenCountExact combines the tokenizer's and the renderer's", () => {
  test.for([
    { renderer: undefined, tokenizer: wordTokenizer, exact: true },
    { renderer: true, tokenizer: wordTokenizer, exact: true },
    { renderer: false, tokenizer: wordTokenizer, exact: false },
    { renderer: undefined, tokenizer: estimatingTokenizer, exact: false },
    { renderer: true, tokenizer: estimatingTokenizer, exact: false },
    { renderer: false, tokenizer: estimatingTokenizer, exact: false },
  ])("renderer $renderer, tokenizer $tokenizer.name: exact $exact", async ({ renderer, tokenizer, exact }) => {
    const result = await createPipeline({ plugins: [probeRenderer(renderer)] }).build(conversationFixture(), { renderer: "probe" as "openai", tokenizer });
    expect(result.tokenCountExact).toBe(exact);
    // The report still says what the tokenizer is.
    expect(result.report.tokenizer).toEqual({ name: tokenizer.name, exact: tokenizer.exact });
  });

  test("a request over budget says its count was an estimate when the renderer's was", async () => {
    const items = conversationFixture();
    const build = (renderer: boolean | undefined) =>
      createPipeline({ plugins: [probeRenderer(renderer)], defaults: { fitBudget: false } }).build(items, { renderer: "probe" as "openai", tokenizer: wordTokenizer, maxTokens: 2 });
    await expect(build(false)).rejects.toSatisfy((error) => error instanceof BudgetExceededError && !error.exact && error.message.includes("(estimated)"));
    await expect(build(undefined)).rejects.toSatisfy((error) => error instanceof BudgetExceededError && error.exact);
  });
});
