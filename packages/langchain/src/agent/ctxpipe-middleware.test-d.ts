import type { BuildReport } from "@ctxpipe/core";
import { type AgentMiddleware, createAgent, fakeModel } from "langchain";
import { describe, expectTypeOf, test } from "vitest";
import { type CtxpipeModelCallBuild, ctxpipeMiddleware } from "./index.js";

describe("ctxpipeMiddleware", () => {
  test("is an AgentMiddleware that createAgent takes, with the last build readable", () => {
    const middleware = ctxpipeMiddleware({ model: "gpt-4o" });
    expectTypeOf(middleware).toExtend<AgentMiddleware>();
    expectTypeOf(middleware.lastBuild).toEqualTypeOf<CtxpipeModelCallBuild | undefined>();
    expectTypeOf<CtxpipeModelCallBuild["report"]>().toEqualTypeOf<BuildReport>();
    createAgent({ model: fakeModel(), tools: [], middleware: [middleware] });
  });

  test("options are checked at compile time", () => {
    // @ts-expect-error maxTokens is a number
    ctxpipeMiddleware({ maxTokens: "lots" });
    ctxpipeMiddleware({ retrieveMaxChars: 5_000, maxOffloadedChars: 1_000_000, retrieveContextTool: true });
    // @ts-expect-error retrieveMaxChars is a number of characters
    ctxpipeMiddleware({ retrieveMaxChars: "5k" });
  });
});
