// Type tests for frozenItem and frozenCopy, as users import them.
import { describe, expectTypeOf, test } from "vitest";
import { frozenCopy, frozenItem, type ItemInput, type ItemOf } from "@ctxpipe/core";

describe("frozenItem", () => {
  test("gives the parsed item of the input's type", () => {
    expectTypeOf(frozenItem({ id: "r", type: "user", text: "hi" })).toEqualTypeOf<ItemOf<"user">>();
    expectTypeOf(frozenItem({ id: "t", type: "tool-result", callId: "c1", output: "ok" })).toEqualTypeOf<ItemOf<"tool-result">>();
    // A parsed item's fields with defaults are there.
    expectTypeOf(frozenItem({ id: "a", type: "assistant", text: "" }).toolCalls).toBeArray();
  });

  test("takes item inputs only", () => {
    // @ts-expect-error: not an item type
    frozenItem({ id: "x", type: "note", text: "hi" });
    // @ts-expect-error: a user item has text
    frozenItem({ id: "x", type: "user" });
    expectTypeOf(frozenItem).parameter(0).toExtend<ItemInput>();
  });
});

describe("frozenCopy", () => {
  test("keeps the value's type", () => {
    expectTypeOf(frozenCopy({ tags: ["a"] })).toEqualTypeOf<{ tags: string[] }>();
    expectTypeOf(frozenCopy("text")).toEqualTypeOf<string>();
  });
});
