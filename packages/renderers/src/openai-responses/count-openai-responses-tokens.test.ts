import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { countOpenAIResponsesInputItemTokens, countOpenAIResponsesTokens, countOpenAIResponsesToolTokens } from "./count-openai-responses-tokens.js";
import type { OpenAIResponsesInputItem, OpenAIResponsesRequest, OpenAIResponsesVerbatimItem } from "./openai-responses-request.js";

// wordTokenizer counts one token per word or punctuation mark, so every count below is done by hand.
describe("countOpenAIResponsesInputItemTokens", () => {
  test.for([
    { case: "a user message: 3 + role + text", item: { type: "message", role: "user", content: "hello world" }, expected: 3 + 1 + 2 },
    { case: "a developer message", item: { type: "message", role: "developer", content: "Be brief." }, expected: 3 + 1 + 3 },
    {
      case: "a user message with parts: the text, a low detail image 85, a high detail one 765",
      item: {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "look" },
          { type: "input_image", detail: "low", image_url: "data:image/png;base64,AAAA" },
          { type: "input_image", detail: "auto", image_url: "https://example.test/a.png" },
        ],
      },
      expected: 3 + 1 + 1 + 85 + 765,
    },
    { case: "a plain assistant message", item: { type: "message", role: "assistant", content: "Paris." }, expected: 3 + 1 + 2 },
    {
      case: "an assistant message with its id: its output_text, not the id",
      item: { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Paris.", annotations: [] }] },
      expected: 3 + 1 + 2,
    },
    // "I can't help." is I can ' t help . = 6 words.
    {
      case: "a refusal sent back with its id: its words",
      item: { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "refusal", refusal: "I can't help." }] },
      expected: 3 + 1 + 6,
    },
    // "read_file" is 1 token; '{"path":"a"}' is { " path " : " a " } = 9.
    { case: "a function call: 3 + name + arguments, not its ids", item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: '{"path":"a"}' }, expected: 3 + 1 + 9 },
    { case: "a function call output: 3 + tool + output", item: { type: "function_call_output", call_id: "call_1", output: "port 80" }, expected: 3 + 1 + 2 },
    {
      case: "a reasoning item: 3 + its summary and reasoning texts; the encrypted content is opaque",
      item: {
        type: "reasoning",
        id: "rs_1",
        summary: [{ type: "summary_text", text: "Check the log." }],
        content: [{ type: "reasoning_text", text: "Then the config" }],
        encrypted_content: "gAAAAB lots of opaque words here",
      },
      expected: 3 + 4 + 3,
    },
    // {"type":"item_reference","id":"r"}: { " type " : " item_reference " , " id " : " r " } = 17.
    { case: "an item of another type: 3 + its JSON", item: { type: "item_reference", id: "r" }, expected: 3 + 17 },
  ] satisfies Array<{ case: string; item: OpenAIResponsesInputItem | OpenAIResponsesVerbatimItem; expected: number }>)("$case", ({ item, expected }) => {
    expect(countOpenAIResponsesInputItemTokens(item, wordTokenizer)).toBe(expected);
  });

  test("a count the caller already has replaces the string content's", () => {
    expect(countOpenAIResponsesInputItemTokens({ type: "message", role: "user", content: "hello world" }, wordTokenizer, 40)).toBe(3 + 1 + 40);
  });
});

describe("countOpenAIResponsesTokens", () => {
  test("the reply priming, the instructions as a leading system message, the items and the tools", () => {
    const request: OpenAIResponsesRequest = {
      model: "gpt-5.1",
      instructions: "Be brief.",
      input: [
        { type: "message", role: "user", content: "hello world" },
        { type: "function_call", call_id: "c", name: "now", arguments: "{}" },
        { type: "function_call_output", call_id: "c", output: "noon" },
      ],
      tools: [{ type: "function", name: "now", description: "The time.", parameters: { type: "object", properties: {} }, strict: false }],
      max_output_tokens: 100,
      prompt_cache_key: "conversation-1",
    };
    const instructions = 3 + 1 + 3;
    const items = 3 + 1 + 2 + (3 + 1 + 2) + (3 + 1 + 1);
    // The Chat Completions tool formula: 12 for the section, 7 + "now:The time" (period dropped) per function.
    const tools = 12 + 7 + 4;
    expect(countOpenAIResponsesToolTokens(request.tools!, wordTokenizer)).toBe(tools);
    expect(countOpenAIResponsesTokens(request, wordTokenizer)).toBe(3 + instructions + items + tools);
  });

  test("a request with only input: the priming and the items", () => {
    expect(countOpenAIResponsesTokens({ input: [{ type: "message", role: "user", content: "hi" }] }, wordTokenizer)).toBe(3 + 3 + 1 + 1);
  });
});
