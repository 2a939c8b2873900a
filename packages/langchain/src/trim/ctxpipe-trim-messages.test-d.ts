import type { BaseMessage } from "@langchain/core/messages";
import { trimMessages } from "@langchain/core/messages";
import { describe, expectTypeOf, test } from "vitest";
import { ctxpipeTrimMessages } from "./ctxpipe-trim-messages.js";

describe("ctxpipeTrimMessages", () => {
  test("takes and returns what trimMessages(messages, options) does", () => {
    const messages: BaseMessage[] = [];
    expectTypeOf(ctxpipeTrimMessages(messages, { maxTokens: 1000 })).toEqualTypeOf(trimMessages(messages, { maxTokens: 1000, tokenCounter: () => 0 }));
  });

  test("takes trimMessages' usual options as they are", () => {
    const counter = (list: BaseMessage[]) => list.length;
    expectTypeOf(ctxpipeTrimMessages).toBeCallableWith([], { maxTokens: 1000, tokenCounter: counter, strategy: "last", includeSystem: true, startOn: "human" });
  });

  test("given the options alone, returns what trimMessages(options) does: a Runnable", () => {
    expectTypeOf(ctxpipeTrimMessages({ maxTokens: 1000 })).toEqualTypeOf(trimMessages({ maxTokens: 1000, tokenCounter: () => 0 }));
  });
});
