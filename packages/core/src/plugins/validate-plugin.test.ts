import { describe, expect, test } from "vitest";
import { ContextValidationError } from "../errors/context-validation-error.js";
import type { Item, ItemInput } from "../model/item.js";
import { parseItems } from "../model/parse-items.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { STAGE } from "../pipeline/stage.js";
import { wordTokenizer } from "../testing/index.js";
import { checkRules } from "../validation/check-rules.js";
import { itemRules } from "../validation/item-rules.js";
import { VALIDATION_RULES, ValidatePlugin } from "./validate-plugin.js";

// Repair is switched off so the validator sees the broken histories as they are.
async function validationError(items: ItemInput[]): Promise<ContextValidationError> {
  try {
    await createPipeline({ defaults: { repairOrphans: false } }).build(items, { tokenizer: wordTokenizer, system: "sys", validation: "throw" });
  } catch (error) {
    if (error instanceof ContextValidationError) return error;
    throw error;
  }
  throw new Error("expected a ContextValidationError");
}

const call = (id: string, callId: string, name = "f", args = "{}"): ItemInput => ({ id, type: "assistant", text: "", toolCalls: [{ id: callId, name, arguments: args }] });
const result = (id: string, callId: string, output = "ok"): ItemInput => ({ id, type: "tool-result", callId, output });
const user = (id: string, text = "hi"): ItemInput => ({ id, type: "user", text });

describe("ValidatePlugin", () => {
  test.for([
    { case: "nothing but the system prompt", items: [{ id: "s", type: "user", text: "x", metadata: { includeInContext: false } } as ItemInput], issues: [{ rule: "NOT_EMPTY", message: "there is nothing to send besides system messages" }] },
    {
      case: "thinking between a call and its result is not a gap",
      items: [user("u"), call("a", "c1"), { id: "th", type: "thinking", text: "hmm" }, result("r", "c1"), user("u2"), call("a2", "c2"), user("u3")],
      issues: [{ rule: "TOOL_CALL_WITHOUT_RESULT", message: 'call "c2" is not answered by a tool result right after it', itemId: "a2", position: 6 }],
    },
    {
      case: "a history that starts with a tool result",
      items: [result("r", "c"), user("u")],
      issues: [
        { rule: "STARTS_WITH_TOOL_RESULT", message: "the conversation starts with a tool result", itemId: "r", position: 1 },
        { rule: "TOOL_RESULT_WITHOUT_CALL", message: 'result of call "c" does not follow the assistant message that made the call', itemId: "r", position: 1 },
      ],
    },
    {
      case: "a call without a result",
      items: [user("u"), call("a", "c1"), user("u2")],
      issues: [{ rule: "TOOL_CALL_WITHOUT_RESULT", message: 'call "c1" is not answered by a tool result right after it', itemId: "a", position: 2 }],
    },
    {
      case: "a result separated from its call by a user message",
      items: [user("u"), call("a", "c1"), user("u2"), result("r", "c1")],
      issues: [
        { rule: "TOOL_RESULT_WITHOUT_CALL", itemId: "r", position: 4 },
        { rule: "TOOL_CALL_WITHOUT_RESULT", itemId: "a", position: 2 },
      ],
    },
    { case: "a call answered twice", items: [user("u"), call("a", "c1"), result("r1", "c1"), result("r2", "c1")], issues: [{ rule: "DUPLICATE_TOOL_RESULT", message: 'call "c1" is answered twice', itemId: "r2", position: 4 }] },
  ])("reports $case (seed 004)", async ({ items, issues }) => {
    const error = await validationError(items as ItemInput[]);
    expect(error.issues).toEqual(issues.map((issue) => expect.objectContaining({ level: "error", phase: "items", plugin: "ValidatePlugin", ...issue })));
  });

  // Every item rule, with an item list that breaks it and the provider error it prevents.
  const long = "x".repeat(10_485_761);
  test.for([
    { rule: "NOT_EMPTY", items: [] as ItemInput[], error: "Invalid 'messages': empty array" },
    { rule: "STARTS_WITH_TOOL_RESULT", items: [result("r", "c"), user("u")], error: "unexpected `tool_use_id` found in `tool_result` blocks" },
    { rule: "TOOL_RESULT_WITHOUT_CALL", items: [user("u"), result("r", "c")], error: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'" },
    { rule: "TOOL_CALL_WITHOUT_RESULT", items: [user("u"), call("a", "c")], error: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'" },
    { rule: "DUPLICATE_TOOL_RESULT", items: [user("u"), call("a", "c"), result("r1", "c"), result("r2", "c")], error: "Duplicate value for 'tool_call_id'" },
    { rule: "DUPLICATE_CALL_ID", items: [user("u"), call("a", "c"), result("r1", "c"), call("a2", "c"), result("r2", "c")], error: "`tool_use` ids must be unique" },
    { rule: "INVALID_CALL_ID", items: [user("u"), call("a", "functions.eval:301"), result("r", "functions.eval:301")], error: "Expected a string with maximum length 40" },
    { rule: "INVALID_TOOL_NAME", items: [user("u"), call("a", "c", "github.search"), result("r", "c")], error: "string does not match pattern" },
    { rule: "ARGUMENTS_NOT_OBJECT", items: [user("u"), call("a", "c", "f", '{"cut'), result("r", "c")], error: undefined },
    { rule: "BLANK_TEXT", items: [user("u", "\u200B \n")], error: "text content blocks must be non-empty" },
    { rule: "LONE_SURROGATE", items: [user("u", "cut emoji \uD83D")], error: "no low surrogate in string" },
    { rule: "STRING_TOO_LONG", items: [user("u", long)], error: "string too long" },
    { rule: "STARTS_WITH_ASSISTANT", items: [{ id: "a", type: "assistant", text: "Hello!" } as ItemInput, user("u")], error: "A conversation must start with a user message." },
    { rule: "ENDS_WITH_ASSISTANT", items: [user("u"), { id: "a", type: "assistant", text: "Sure" } as ItemInput], error: "This model does not support assistant message prefill." },
  ])("$rule fires, guarding against: $error", ({ rule, items, error }) => {
    const violations = checkRules(itemRules, parseItems(items), {});
    expect(violations.map((violation) => violation.rule)).toContain(rule);
    const found = violations.find((violation) => violation.rule === rule)!;
    if (error === undefined) expect(found.level).toBe("strict");
    else expect(found.providerError).toContain(error);
  });

  test("VALIDATION_RULES lists every item rule", () => {
    expect(Object.values(VALIDATION_RULES)).toEqual(itemRules.map((rule) => rule.id));
  });

  test("a well-formed conversation breaks no item rule", () => {
    const items = parseItems([user("u"), call("a", "c"), result("r", "c"), { id: "a2", type: "assistant", text: "done" }, user("u2", "thanks")]);
    expect(checkRules(itemRules, items)).toEqual([]);
  });

  test("custom rules replace or extend the table", async () => {
    const noShouting = {
      id: "NO_SHOUTING",
      level: "strict" as const,
      requires: "no text in capitals only",
      check(items: ReadonlyArray<Item>, report: (violation: { message: string; itemId?: string }) => void) {
        for (const item of items) if ("text" in item && /^[A-Z !]+$/.test(item.text)) report({ message: "shouting", itemId: item.id });
      },
    };
    const pipeline = createPipeline({ plugins: [new ValidatePlugin({ rules: [noShouting] })] });
    await expect(pipeline.build([user("u", "HELLO!")], { tokenizer: wordTokenizer, validation: "throw" })).rejects.toMatchObject({
      name: "ContextValidationError",
      issues: [expect.objectContaining({ rule: "NO_SHOUTING", level: "strict", itemId: "u" })],
    });
  });
});

describe("validation modes", () => {
  // A plugin that breaks the sequence after repair-orphans ran: a result for a call nobody made.
  const breaker = {
    name: "Breaker",
    apply(pipeline: import("../pipeline/pipeline-hooks.js").PluginHost) {
      pipeline.hooks.insertSystem.tap({ name: "Breaker", stage: STAGE.LAST }, (items) => [
        ...items,
        { id: "stray", type: "tool-result", role: "tool", callId: "nobody", output: "?", isError: false, kind: "tool", metadata: {} },
      ]);
    },
  };
  const items = [user("u")];

  test('"throw" fails with every violation, naming the rule and the item', async () => {
    const pipeline = createPipeline({ plugins: [breaker] });
    await expect(pipeline.build(items, { tokenizer: wordTokenizer, validation: "throw" })).rejects.toMatchObject({
      name: "ContextValidationError",
      message: expect.stringContaining('TOOL_RESULT_WITHOUT_CALL [error] (item "stray" at position 1)'),
    });
  });

  test('"repair" (the default) hands the items back to repair-orphans, which fixes them, and reports it', async () => {
    const result = await createPipeline({ plugins: [breaker] }).build(items, { tokenizer: wordTokenizer });
    expect(result.request.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(result.report.repairedViolations.map((issue) => issue.rule)).toEqual(["TOOL_RESULT_WITHOUT_CALL"]);
    expect(result.report.synthesized).toEqual([]);
    expect(result.report.violations).toEqual([]);
  });

  test('"repair" fails when the second pass cannot fix it', async () => {
    const pipeline = createPipeline({ plugins: [breaker], defaults: { repairOrphans: false } });
    await expect(pipeline.build(items, { tokenizer: wordTokenizer })).rejects.toBeInstanceOf(ContextValidationError);
  });

  test('"report" sends the request and lists the violations', async () => {
    const result = await createPipeline({ plugins: [breaker] }).build(items, { tokenizer: wordTokenizer, validation: "report" });
    expect(result.report.violations.map((issue) => [issue.rule, issue.phase])).toEqual([
      ["TOOL_RESULT_WITHOUT_CALL", "items"],
      ["OAI-003", "request"],
    ]);
    expect(result.request.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "nobody", content: "?" });
  });

  test("ignored rules are not checked; \"strict\" ignores every strict rule", async () => {
    const prefill = [user("u"), { id: "a", type: "assistant" as const, text: "The answer is" }];
    const pipeline = createPipeline({ plugins: [new (await import("./repair-orphans-plugin.js")).RepairOrphansPlugin({ trailingAssistant: "keep" })] });
    await expect(pipeline.build(prefill, { tokenizer: wordTokenizer })).rejects.toMatchObject({ issues: [expect.objectContaining({ rule: "ENDS_WITH_ASSISTANT" })] });
    const kept = await pipeline.build(prefill, { tokenizer: wordTokenizer, validation: { ignore: ["strict"] } });
    expect(kept.request.messages.at(-1)).toEqual({ role: "assistant", content: "The answer is" });
    const byId = await pipeline.build(prefill, { tokenizer: wordTokenizer, validation: { ignore: ["ENDS_WITH_ASSISTANT", "OAI-017"] } });
    expect(byId.request.messages).toEqual(kept.request.messages);
  });

  test("bad validation options are refused", async () => {
    await expect(createPipeline().build(items, { validation: "lenient" as never })).rejects.toMatchObject({ name: "PluginOptionsError" });
  });
});
