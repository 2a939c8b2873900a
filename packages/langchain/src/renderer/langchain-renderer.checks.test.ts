// The checks core offers every renderer author, run on the LangChain renderer: its requests break
// none of langChainRules for random and adversarial conversations, and every piece of item content
// reaches the request or the report says why, but for the gap listed below.
import { assertRendererFollowsRules, checkRendererCarriesContent } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LangChainRendererPlugin } from "./langchain-renderer-plugin.js";
import { langChainRules } from "./langchain-rules.js";

describe("the LangChain renderer under core's renderer checks", () => {
  test("breaks no rule of langChainRules, for random and adversarial conversations", async () => {
    await assertRendererFollowsRules(fc, { renderer: "langchain", plugins: new LangChainRendererPlugin(), rules: langChainRules, numRuns: 100 });
  });

  test("carries every piece of content, or reports it", async () => {
    const problems = await checkRendererCarriesContent({
      renderer: "langchain",
      plugins: new LangChainRendererPlugin(),
      knownOmissions: {
        // Gap: reasoning that did not come from LangChain content blocks is left out, unreported. Only
        // @langchain/anthropic takes reasoning back (as signed thinking blocks); the other provider
        // packages drop or refuse such blocks, and the renderer does not know which one will send.
        "assistant.reasoning": "reasoning not imported from LangChain blocks is left out without a report entry",
        "assistant.signed-reasoning": "reasoning not imported from LangChain blocks is left out without a report entry",
      },
    });
    expect(problems).toEqual([]);
  });
});
