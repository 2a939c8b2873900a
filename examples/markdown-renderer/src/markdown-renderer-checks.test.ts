// The checks @ctxpipe/core/testing offers every renderer author, as a third party runs them: the
// transcript breaks none of the renderer's rules for random and adversarial conversations, and every
// piece of item content is in it or the report says why.
import { assertRendererFollowsRules, checkRendererCarriesContent } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MarkdownRendererPlugin } from "./markdown-renderer-plugin.js";
import { markdownRules } from "./markdown-rules.js";

describe("the markdown renderer under core's renderer checks", () => {
  test("breaks none of its rules, for random and adversarial conversations", async () => {
    await assertRendererFollowsRules(fc, { renderer: "markdown", plugins: new MarkdownRendererPlugin(), rules: markdownRules, numRuns: 150 });
  }, 60_000);

  test.for([{ includeThinking: false }, { includeThinking: true }])("carries every piece of content or reports it (includeThinking: $includeThinking)", async (options) => {
    expect(await checkRendererCarriesContent({ renderer: "markdown", plugins: new MarkdownRendererPlugin(options) })).toEqual([]);
  });
});
