// The generic provider-valid property: core's own renderer passes it; a renderer that breaks its rules,
// or throws, fails it with the input shown; refusing an empty history is right.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import type { PipelinePlugin } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { OpenAIChatRequest } from "../renderers/openai-chat/openai-chat-request.js";
import { openAIChatRules } from "../renderers/openai-chat/openai-chat-rules.js";
import { assertRendererFollowsRules } from "./assert-renderer-follows-rules.js";
import { checkRendererRules } from "./check-renderer-rules.js";
import { toolLoopFixture } from "./fixtures.js";

/** Takes over "openai" ahead of the default renderer, and renders each item as a user message of its text. */
function everythingAsUserText(render: (items: ReadonlyArray<Item>) => OpenAIChatRequest): PipelinePlugin {
  return {
    name: "NaiveRenderer",
    apply(pipeline) {
      pipeline.hooks.render.for("openai").tap({ name: "NaiveRenderer", stage: STAGE.EARLY }, (items) => {
        const request = render(items);
        return { request, tokenCount: 0, messageCount: request.messages.length };
      });
    },
  };
}

const textOf = (item: Item) => ("text" in item ? item.text : item.type === "tool-result" ? item.output : "");

describe("assertRendererFollowsRules", () => {
  test("core's OpenAI renderer breaks none of its rules, for random and adversarial conversations", async () => {
    await assertRendererFollowsRules(fc, { renderer: "openai", rules: openAIChatRules, build: { model: "gpt-4o" }, numRuns: 100 });
  }, 60_000);

  test("a renderer that sends blank messages fails, with the rule, the place and the input", async () => {
    const naive = everythingAsUserText((items) => ({ messages: items.map((item) => ({ role: "user", content: textOf(item) })) }));
    const failure = assertRendererFollowsRules(fc, { renderer: "openai", plugins: naive, rules: openAIChatRules, build: { validation: "report" }, seed: 7 });
    await expect(failure).rejects.toThrow(/Counterexample: \[\[[\s\S]*the "openai" request is not valid:\n {2}OAI-012 \[strict\] at messages\[\d+\]\.content/);
  }, 60_000);
});

describe("checkRendererRules", () => {
  test("an input with nothing to send is refused, and that is right", async () => {
    expect(await checkRendererRules({ renderer: "openai", rules: openAIChatRules }, [])).toEqual([]);
    expect(await checkRendererRules({ renderer: "openai", rules: openAIChatRules }, [{ id: "n", type: "user", text: "note", metadata: { includeInContext: false } }])).toEqual([]);
  });

  test("any other error is a problem, named with its code", async () => {
    const throwing = everythingAsUserText(() => {
      throw new TypeError("cannot read properties of undefined");
    });
    expect(await checkRendererRules({ renderer: "openai", plugins: throwing, rules: openAIChatRules }, toolLoopFixture())).toEqual([
      expect.stringMatching(/^the build failed: PluginError PLUGIN_FAILED: .*NaiveRenderer.*cannot read properties of undefined/),
    ]);
  });

  test("lists every violation of a request the pipeline sends anyway", async () => {
    const silent = everythingAsUserText(() => ({ messages: [] }));
    expect(await checkRendererRules({ renderer: "openai", plugins: silent, rules: openAIChatRules, build: { validation: "report" } }, toolLoopFixture())).toEqual([
      "OAI-001 [error] at messages: messages is empty",
    ]);
  });
});
