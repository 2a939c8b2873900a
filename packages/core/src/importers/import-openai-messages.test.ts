import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { arbitraryInput, returnsOrThrowsInvalidInput } from "./__fixtures__/arbitrary-input.js";
import { catchInvalidInput, errorShape } from "./__fixtures__/catch-invalid-input.js";
import { importOpenAIMessages } from "./import-openai-messages.js";

describe("importOpenAIMessages", () => {
  test.for<{ name: string; message: Record<string, unknown>; expected: Item }>([
    {
      name: "system message",
      message: { role: "system", content: "Be brief." },
      expected: { id: "msg-0", type: "system", role: "system", text: "Be brief.", metadata: {} },
    },
    {
      name: "developer message with text parts",
      message: { role: "developer", content: [{ type: "text", text: "Rule 1" }, { type: "text", text: "Rule 2" }] },
      expected: { id: "msg-0", type: "system", role: "system", text: "Rule 1\nRule 2", metadata: {} },
    },
    {
      name: "user message with image, file and audio parts",
      message: {
        role: "user",
        name: "ada",
        content: [
          { type: "text", text: "Compare" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          { type: "file", file: { file_data: "data:application/pdf;base64,JVBER", filename: "spec.pdf" } },
          { type: "file", file: { file_id: "file-abc" } },
          { type: "input_audio", input_audio: { data: "UklGR", format: "wav" } },
        ],
      },
      expected: {
        id: "msg-0",
        type: "user",
        role: "user",
        text: "Compare",
        attachments: [
          { type: "image", url: "data:image/png;base64,AAAA" },
          { type: "file", data: "data:application/pdf;base64,JVBER", filename: "spec.pdf" },
          { type: "file", fileId: "file-abc" },
        ],
        metadata: { extra: { name: "ada", parts: [{ type: "input_audio", input_audio: { data: "UklGR", format: "wav" } }] } },
      },
    },
    {
      name: "assistant with tool_calls and null content",
      message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
      expected: {
        id: "msg-0",
        type: "assistant",
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}', kind: "tool" }],
        metadata: {},
      },
    },
    {
      name: "assistant refusal without content",
      message: { role: "assistant", content: null, refusal: "I can't help with that." },
      expected: { id: "msg-0", type: "assistant", role: "assistant", text: "I can't help with that.", toolCalls: [], metadata: {} },
    },
    {
      name: "assistant refusal part",
      message: { role: "assistant", content: [{ type: "refusal", refusal: "No." }] },
      expected: { id: "msg-0", type: "assistant", role: "assistant", text: "No.", toolCalls: [], metadata: {} },
    },
    {
      name: "assistant with content keeps its refusal in extra",
      message: { role: "assistant", content: "Partly.", refusal: "Not the rest." },
      expected: { id: "msg-0", type: "assistant", role: "assistant", text: "Partly.", toolCalls: [], metadata: { extra: { refusal: "Not the rest." } } },
    },
    {
      name: "assistant with a legacy function_call",
      message: { role: "assistant", content: null, function_call: { name: "lookup", arguments: '{"q":"x"}' } },
      expected: {
        id: "msg-0",
        type: "assistant",
        role: "assistant",
        text: "",
        toolCalls: [{ id: "function_call_0", name: "lookup", arguments: '{"q":"x"}', kind: "tool" }],
        metadata: {},
      },
    },
  ])("$name", ({ message, expected }) => {
    expect(importOpenAIMessages([message])).toStrictEqual([expected]);
  });

  test("tool results take their tool name from the call they answer; ids use idPrefix", () => {
    const items = importOpenAIMessages(
      [
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_p", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "call_r", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_p", content: "18C" },
        { role: "tool", tool_call_id: "call_r", content: [{ type: "text", text: "24C" }] },
        { role: "tool", tool_call_id: "call_unknown", content: "?" },
      ],
      { idPrefix: "conv1/" },
    );
    expect(items.slice(2)).toStrictEqual([
      { id: "conv1/2", type: "tool-result", role: "tool", callId: "call_p", toolName: "get_weather", output: "18C", isError: false, kind: "tool", metadata: {} },
      { id: "conv1/3", type: "tool-result", role: "tool", callId: "call_r", toolName: "get_weather", output: "24C", isError: false, kind: "tool", metadata: {} },
      { id: "conv1/4", type: "tool-result", role: "tool", callId: "call_unknown", output: "?", isError: false, kind: "tool", metadata: {} },
    ]);
  });

  test("calls and results with an empty id (OpenAI-compatible servers) import, with no tool name guessed for the result", () => {
    const items = importOpenAIMessages([
      { role: "assistant", content: null, tool_calls: [{ id: "", type: "function", function: { name: "ls", arguments: "{}" } }, { id: "", type: "function", function: { name: "wc", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "", content: "a.ts" },
    ]);
    expect(items).toStrictEqual([
      { id: "msg-0", type: "assistant", role: "assistant", text: "", toolCalls: [{ id: "", name: "ls", arguments: "{}", kind: "tool" }, { id: "", name: "wc", arguments: "{}", kind: "tool" }], metadata: {} },
      { id: "msg-1", type: "tool-result", role: "tool", callId: "", output: "a.ts", isError: false, kind: "tool", metadata: {} },
    ]);
  });

  test("a legacy function message answers the function_call right before it", () => {
    const items = importOpenAIMessages([
      { role: "user", content: "Look up x" },
      { role: "assistant", content: null, function_call: { name: "lookup", arguments: "{}" } },
      { role: "function", name: "lookup", content: "x is 1" },
    ]);
    expect(items[2]).toStrictEqual({ id: "msg-2", type: "tool-result", role: "tool", callId: "function_call_1", toolName: "lookup", output: "x is 1", isError: false, kind: "tool", metadata: {} });
  });

  test("keeps unknown fields verbatim in metadata.extra", () => {
    const audio = { id: "audio_1" };
    const [item] = importOpenAIMessages([{ role: "assistant", content: "Hi", audio, name: "bot", tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" }, index: 3 }] }]);
    expect(item?.metadata).toStrictEqual({ extra: { audio: { id: "audio_1" }, name: "bot", "tool_calls[0].index": 3 } });
    expect(item?.metadata.extra?.audio).toBe(audio);
  });

  test.for<{ name: string; input: unknown; index: number; path: Array<string | number>; field: string }>([
    { name: "input that is not an array", input: null, index: 0, path: [], field: "(record)" },
    { name: "a null record", input: [{ role: "user", content: "hi" }, null], index: 1, path: [], field: "(record)" },
    { name: "an unknown role", input: [{ role: "bot", content: "hi" }], index: 0, path: ["role"], field: "role" },
    { name: "content of the wrong type", input: [{ role: "user", content: { text: "hi" } }], index: 0, path: ["content"], field: "content" },
    { name: "a part without a type", input: [{ role: "user", content: [{ text: "hi" }] }], index: 0, path: ["content", 0, "type"], field: "content[0].type" },
    { name: "a file part without data or id", input: [{ role: "user", content: [{ type: "file", file: { filename: "a.pdf" } }] }], index: 0, path: ["content", 0, "file"], field: "content[0].file" },
    { name: "a tool message without tool_call_id", input: [{ role: "tool", content: "18C" }], index: 0, path: ["tool_call_id"], field: "tool_call_id" },
    {
      name: "a tool call without a function name",
      input: [{ role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { arguments: "{}" } }] }],
      index: 0,
      path: ["tool_calls", 0, "function", "name"],
      field: "tool_calls[0].function.name",
    },
    { name: "a tool call of an unknown type", input: [{ role: "assistant", tool_calls: [{ id: "c1", type: "custom", function: { name: "f" } }] }], index: 0, path: ["tool_calls", 0, "type"], field: "tool_calls[0].type" },
    { name: "a function_call without a name", input: [{ role: "assistant", function_call: { arguments: "{}" } }], index: 0, path: ["function_call", "name"], field: "function_call.name" },
    { name: "a function message with no function_call before it", input: [{ role: "user", content: "x" }, { role: "function", name: "f", content: "1" }], index: 1, path: [], field: "(record)" },
  ])("rejects $name", ({ input, index, path, field }) => {
    const error = catchInvalidInput(() => importOpenAIMessages(input));
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "OpenAI message", index, id: undefined, path });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain(`OpenAI message[${index}], field ${field}:`);
  });

  test("names a record's own id in errors when it has one", () => {
    const error = catchInvalidInput(() => importOpenAIMessages([{ id: "m-9", role: "tool", content: "x" }]));
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "OpenAI message", index: 0, id: "m-9", path: ["tool_call_id"] });
    expect(error.message).toContain('OpenAI message[0] (id "m-9"), field tool_call_id:');
  });

  test("lists every problem of the input in one error", () => {
    const error = catchInvalidInput(() =>
      importOpenAIMessages([{ role: "user", content: 3 }, "hello", { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "" } }] }, { role: "tool" }]),
    );
    expect(error.issues).toStrictEqual([
      { index: 0, id: undefined, path: ["content"], message: "expected a string, null or an array of content parts, got 3" },
      { index: 1, id: undefined, path: [], message: "expected an object, got a string" },
      { index: 2, id: undefined, path: ["tool_calls", 0, "function", "name"], message: "expected a non-empty string, got an empty string" },
      { index: 3, id: undefined, path: ["tool_call_id"], message: "a tool message needs the tool_call_id of the call it answers" },
    ]);
  });

  test("rejects options that do not validate", () => {
    expect(() => importOpenAIMessages([], { idPrefix: 5 as unknown as string })).toThrow(expect.objectContaining({ name: "PluginOptionsError", code: "OPTIONS_INVALID" }));
  });

  test("imports a tool loop that the pipeline builds", async () => {
    const messages = [
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_p", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
      { role: "tool", tool_call_id: "call_p", content: "18C" },
      { role: "assistant", content: "18C in Paris." },
    ];
    const result = await createPipeline().build(importOpenAIMessages(messages));
    expect(result.request.messages).toStrictEqual([...messages, { role: "user", content: "Continue." }]);
  });

  test("any input either imports or throws InvalidInputError, never a TypeError", () => {
    const keys = ["role", "content", "name", "tool_calls", "tool_call_id", "refusal", "function_call", "type", "text", "image_url", "url", "detail", "file", "file_data", "file_id", "filename", "id", "function", "arguments"];
    const labels = ["system", "developer", "user", "assistant", "tool", "function", "text", "image_url", "file", "refusal", "input_audio", "high"];
    fc.assert(fc.property(arbitraryInput(keys, labels), (input) => returnsOrThrowsInvalidInput(() => importOpenAIMessages(input))), { numRuns: 500 });
  });
});
