// RenderResult.tokenCountExact, as a renderer plugin sets it.
import { createPipeline, type RenderResult } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";

describe("RenderResult.tokenCountExact", () => {
  test("is an optional boolean a render tap may return", () => {
    expectTypeOf<RenderResult<unknown>["tokenCountExact"]>().toEqualTypeOf<boolean | undefined>();
    const pipeline = createPipeline();
    pipeline.hooks.render.for("openai").tap({ name: "Estimating" }, () => ({ request: { messages: [] }, tokenCount: 0, messageCount: 0, tokenCountExact: false }));
    // @ts-expect-error it says exact or not, nothing else
    pipeline.hooks.render.for("openai").tap({ name: "Wrong" }, () => ({ request: { messages: [] }, tokenCount: 0, messageCount: 0, tokenCountExact: "estimated" }));
  });
});
