import { describe, expect, test } from "vitest";
import { ContextValidationError } from "../errors/context-validation-error.js";
import type { ItemInput } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { wordTokenizer } from "../testing/index.js";

// Repair is switched off so the validator sees the broken histories as they are.
async function validationError(items: ItemInput[]): Promise<ContextValidationError> {
  try {
    await createPipeline({ defaults: { repairOrphans: false } }).build(items, { tokenizer: wordTokenizer, system: "sys" });
  } catch (error) {
    if (error instanceof ContextValidationError) return error;
    throw error;
  }
  throw new Error("expected a ContextValidationError");
}

const call = (id: string, callId: string): ItemInput => ({ id, type: "assistant", text: "", toolCalls: [{ id: callId, name: "f", arguments: "{}" }] });
const result = (id: string, callId: string): ItemInput => ({ id, type: "tool-result", callId, output: "ok" });
const user = (id: string): ItemInput => ({ id, type: "user", text: "hi" });

describe("ValidatePlugin (basic)", () => {
  test.for([
    { case: "nothing but the system prompt", items: [{ id: "s", type: "user", text: "x", metadata: { includeInContext: false } }], issues: [{ rule: "NOT_EMPTY", message: "there is nothing to send besides system messages", plugin: "ValidatePlugin" }] },
    {
      case: "thinking between a call and its result is not a gap",
      items: [user("u"), call("a", "c1"), { id: "th", type: "thinking", text: "hmm" }, result("r", "c1"), user("u2"), call("a2", "c2"), user("u3")],
      issues: [{ rule: "TOOL_CALL_WITHOUT_RESULT", message: 'call "c2" is not answered by a tool result right after it', itemId: "a2", position: 6, plugin: "ValidatePlugin" }],
    },
    {
      case: "a history that starts with a tool result",
      items: [result("r", "c"), user("u")],
      issues: [
        { rule: "STARTS_WITH_TOOL_RESULT", message: "the conversation starts with a tool result", itemId: "r", position: 1, plugin: "ValidatePlugin" },
        { rule: "TOOL_RESULT_WITHOUT_CALL", message: 'result of call "c" does not follow the assistant message that made the call', itemId: "r", position: 1, plugin: "ValidatePlugin" },
      ],
    },
    {
      case: "a call without a result",
      items: [user("u"), call("a", "c1"), user("u2")],
      issues: [{ rule: "TOOL_CALL_WITHOUT_RESULT", message: 'call "c1" is not answered by a tool result right after it', itemId: "a", position: 2, plugin: "ValidatePlugin" }],
    },
    {
      case: "a result separated from its call by a user message",
      items: [user("u"), call("a", "c1"), user("u2"), result("r", "c1")],
      issues: [
        { rule: "TOOL_CALL_WITHOUT_RESULT", message: 'call "c1" is not answered by a tool result right after it', itemId: "a", position: 2, plugin: "ValidatePlugin" },
        { rule: "TOOL_RESULT_WITHOUT_CALL", message: 'result of call "c1" does not follow the assistant message that made the call', itemId: "r", position: 4, plugin: "ValidatePlugin" },
      ],
    },
    {
      case: "a call answered twice",
      items: [user("u"), call("a", "c1"), result("r1", "c1"), result("r2", "c1")],
      issues: [{ rule: "DUPLICATE_TOOL_RESULT", message: 'call "c1" is answered twice', itemId: "r2", position: 4, plugin: "ValidatePlugin" }],
    },
  ] satisfies Array<{ case: string; items: ItemInput[]; issues: unknown[] }>)("reports $case", async ({ items, issues }) => {
    const error = await validationError(items);
    expect(error).toMatchObject({ name: "ContextValidationError", code: "CONTEXT_INVALID" });
    expect(error.issues).toEqual(issues);
    for (const issue of issues as Array<{ rule: string }>) expect(error.message).toContain(issue.rule);
  });

  test("collects the issues of every validate tap before failing once", async () => {
    const pipeline = createPipeline({
      defaults: { repairOrphans: false },
      plugins: [{ name: "NoShouting", apply: (host) => host.hooks.validate.tap({ name: "NoShouting" }, (items, context) => {
        for (const item of items) if (item.type === "user" && item.text === item.text.toUpperCase()) context.issue({ rule: "NO_SHOUTING", message: "all caps", item });
      }) }],
    });
    await expect(pipeline.build([{ id: "u", type: "user", text: "HI" }, result("r", "c")], { tokenizer: wordTokenizer })).rejects.toMatchObject({
      issues: [
        { rule: "TOOL_RESULT_WITHOUT_CALL", itemId: "r", plugin: "ValidatePlugin" },
        { rule: "NO_SHOUTING", itemId: "u", plugin: "NoShouting" },
      ],
    });
  });
});
