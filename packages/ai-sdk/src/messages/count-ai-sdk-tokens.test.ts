import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { countAiSdkPartTokens, countAiSdkRequestTokens, countAiSdkToolTokens } from "./count-ai-sdk-tokens.js";

const count = (text: string) => wordTokenizer.count(text);

describe("countAiSdkPartTokens", () => {
  test.for<{ name: string; part: unknown; expected: number }>([
    { name: "a text part: its text", part: { type: "text", text: "hello big world" }, expected: count("hello big world") },
    { name: "a reasoning part: its text", part: { type: "reasoning", text: "think first" }, expected: count("think first") },
    { name: "a tool call: 3 + its name + the JSON of its input", part: { type: "tool-call", toolCallId: "c", toolName: "read_file", input: { path: "a.ts" } }, expected: 3 + count("read_file") + count('{"path":"a.ts"}') },
    { name: "a tool result with text: 3 + its tool name + its text", part: { type: "tool-result", toolCallId: "c", toolName: "read_file", output: { type: "text", value: "export {}" } }, expected: 3 + count("read_file") + count("export {}") },
    { name: "a tool result with JSON: its value's JSON", part: { type: "tool-result", toolCallId: "c", toolName: "t", output: { type: "json", value: { a: 1 } } }, expected: 3 + count("t") + count('{"a":1}') },
    { name: "a denied execution: its reason", part: { type: "tool-result", toolCallId: "c", toolName: "t", output: { type: "execution-denied", reason: "not now" } }, expected: 3 + count("t") + count("not now") },
    { name: "an image part: 765", part: { type: "image", image: "https://example.com/a.png" }, expected: 765 },
    { name: "an image file: 765", part: { type: "file", mediaType: "image/png", data: "iVBOR" }, expected: 765 },
    { name: "another file: 1,600", part: { type: "file", mediaType: "application/pdf", data: "JVBER" }, expected: 1600 },
    { name: "an inline text file: its text", part: { type: "file", mediaType: "text/plain", data: { type: "text", text: "a b c" } }, expected: count("a b c") },
    { name: "anything else: its JSON", part: { type: "tool-approval-request", approvalId: "a", toolCallId: "c" }, expected: count('{"type":"tool-approval-request","approvalId":"a","toolCallId":"c"}') },
  ])("$name", ({ part, expected }) => {
    expect(countAiSdkPartTokens(part, wordTokenizer)).toBe(expected);
  });
});

describe("countAiSdkRequestTokens", () => {
  test("3 to prime the reply, then 3 + the role + the content for the system prompt and each message, then the tools", () => {
    const tools = [{ name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
    const request = { system: "Be brief.", messages: [{ role: "user" as const, content: "hello world" }] };
    expect(countAiSdkRequestTokens(request, wordTokenizer)).toBe(3 + (3 + count("system") + count("Be brief.")) + (3 + count("user") + count("hello world")));
    expect(countAiSdkRequestTokens(request, wordTokenizer, tools) - countAiSdkRequestTokens(request, wordTokenizer)).toBe(countAiSdkToolTokens(tools, wordTokenizer));
  });
});
