import { describe, expect, test } from "vitest";
import type { ToolDefinition } from "../spec/tool-definition.js";
import { wordTokenizer } from "../testing/word-tokenizer.js";
import { countChatMessageTokens, countChatRequestTokens } from "./count-chat-request-tokens.js";
import { countOpenAIChatTokens } from "./openai-chat/count-openai-chat-tokens.js";
import type { OpenAIChatRequest } from "./openai-chat/openai-chat-request.js";

const readFile = { name: "read_file", description: "Reads a file.", parameters: { type: "object", properties: { path: { type: "string", description: "Where." } } } };
const search = { name: "search", parameters: { type: "object", properties: { mode: { type: "string", enum: ["fast", "deep"] } } } };
const tools: ToolDefinition[] = [readFile, search];

describe("countChatRequestTokens", () => {
  test("counts a request without tool calls exactly as the OpenAI renderer counts it", () => {
    const request: OpenAIChatRequest = {
      messages: [
        { role: "system", content: "You are a careful engineer." },
        { role: "user", content: [{ type: "text", text: "Look at this:" }, { type: "image_url", image_url: { url: "https://example.test/a.png", detail: "low" } }], name: "ada" },
        { role: "assistant", content: "A stack trace." },
        { role: "user", content: [{ type: "file", file: { file_id: "file-1", filename: "a.pdf" } }] },
      ],
      tools: [
        { type: "function", function: readFile },
        { type: "function", function: search },
      ],
    };
    expect(countChatRequestTokens(request, wordTokenizer, { tools })).toBe(countOpenAIChatTokens(request, wordTokenizer));
  });

  test("counts the text of any part with a string text, whatever its type", () => {
    const anthropicLike = { role: "user", content: [{ type: "text", text: "one two" }, { type: "tool_result", tool_use_id: "t", text: "three" }] };
    expect(countChatMessageTokens(anthropicLike, wordTokenizer)).toBe(3 + 1 + 3);
  });

  test.for([
    { name: "OpenAI's defaults", options: {}, expected: 3 + 2 * (3 + 1 + 1) },
    { name: "a provider's own framing", options: { tokensPerMessage: 5, replyPriming: 0 }, expected: 2 * (5 + 1 + 1) },
    { name: "media by the provider's size", options: { partTokens: () => 258 }, expected: 3 + 2 * (3 + 1 + 1) + 258 },
  ])("with $name", ({ options, expected }) => {
    const request = {
      messages: [
        { role: "user", content: "hello" },
        { role: "assistant", content: [{ type: "text", text: "hi" }, ...("partTokens" in options ? [{ inlineData: { mimeType: "image/png", data: "AAAA" } }] : [])] },
      ],
    };
    expect(countChatRequestTokens(request, wordTokenizer, options)).toBe(expected);
  });

  test("null content costs nothing but the framing and the role", () => {
    expect(countChatMessageTokens({ role: "assistant", content: null }, wordTokenizer)).toBe(3 + 1);
  });
});
