import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { arbitraryInput, returnsOrThrowsInvalidInput } from "./__fixtures__/arbitrary-input.js";
import { catchInvalidInput, errorShape } from "./__fixtures__/catch-invalid-input.js";
import { importAnthropicMessages } from "./import-anthropic-messages.js";

describe("importAnthropicMessages", () => {
  test.for<{ name: string; message: Record<string, unknown>; expected: Item[] }>([
    {
      name: "user message with string content",
      message: { role: "user", content: "Hello" },
      expected: [{ id: "msg-0", type: "user", role: "user", text: "Hello", metadata: {} }],
    },
    {
      name: "user text blocks and images (base64 → data: URL, url → url)",
      message: {
        role: "user",
        content: [
          { type: "text", text: "Compare" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          { type: "image", source: { type: "url", url: "https://example.com/b.jpg" } },
          { type: "text", text: "these" },
        ],
      },
      expected: [
        {
          id: "msg-0",
          type: "user",
          role: "user",
          text: "Compare\nthese",
          attachments: [
            { type: "image", url: "data:image/png;base64,iVBOR" },
            { type: "image", url: "https://example.com/b.jpg" },
          ],
          metadata: {},
        },
      ],
    },
    {
      name: "documents become file attachments; a plain-text document is kept in extra.parts",
      message: {
        role: "user",
        content: [
          { type: "document", title: "spec.pdf", source: { type: "base64", media_type: "application/pdf", data: "JVBER" } },
          { type: "document", source: { type: "file", file_id: "file_01" } },
          { type: "document", source: { type: "text", media_type: "text/plain", data: "notes" } },
        ],
      },
      expected: [
        {
          id: "msg-0",
          type: "user",
          role: "user",
          text: "",
          attachments: [
            { type: "file", data: "JVBER", mediaType: "application/pdf", filename: "spec.pdf" },
            { type: "file", fileId: "file_01" },
          ],
          metadata: { extra: { parts: [{ type: "document", source: { type: "text", media_type: "text/plain", data: "notes" } }] } },
        },
      ],
    },
    {
      name: "assistant text, tool_use and thinking in one item",
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I need the file.", signature: "sig-1" },
          { type: "redacted_thinking", data: "EncryptedBlob" },
          { type: "text", text: "Let me read it." },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.json" } },
          { type: "tool_use", id: "toolu_2", name: "list_dir", input: {} },
        ],
      },
      expected: [
        {
          id: "msg-0",
          type: "assistant",
          role: "assistant",
          text: "Let me read it.",
          toolCalls: [
            { id: "toolu_1", name: "read_file", arguments: '{"path":"a.json"}', kind: "tool" },
            { id: "toolu_2", name: "list_dir", arguments: "{}", kind: "tool" },
          ],
          reasoning: [{ text: "I need the file.", signature: "sig-1" }, { text: "EncryptedBlob", redacted: true }],
          metadata: {},
        },
      ],
    },
    {
      name: "user tool results: one item per block, then the user's own text",
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: '{"port":80}' },
          { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: "ENOENT" }], is_error: true },
          { type: "text", text: "Also check c.json" },
        ],
      },
      expected: [
        { id: "msg-0.0", type: "tool-result", role: "tool", callId: "toolu_1", output: '{"port":80}', isError: false, kind: "tool", metadata: {} },
        { id: "msg-0.1", type: "tool-result", role: "tool", callId: "toolu_2", output: "ENOENT", isError: true, kind: "tool", metadata: {} },
        { id: "msg-0", type: "user", role: "user", text: "Also check c.json", metadata: {} },
      ],
    },
    {
      name: "user message with only tool results has no user item",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1" }] },
      expected: [{ id: "msg-0.0", type: "tool-result", role: "tool", callId: "toolu_1", output: "", isError: false, kind: "tool", metadata: {} }],
    },
  ])("$name", ({ message, expected }) => {
    expect(importAnthropicMessages([message])).toStrictEqual(expected);
  });

  test("the system option becomes a leading system item; ids use idPrefix; tool names come from tool_use", () => {
    const items = importAnthropicMessages(
      [
        { role: "user", content: "Read a.json" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.json" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "{}" }] },
      ],
      { system: [{ type: "text", text: "Be brief." }, { type: "text", text: "Cite files.", cache_control: { type: "ephemeral" } }], idPrefix: "t1:" },
    );
    expect(items.map((item) => item.id)).toStrictEqual(["t1:system", "t1:0", "t1:1", "t1:2.0"]);
    expect(items[0]).toStrictEqual({ id: "t1:system", type: "system", role: "system", text: "Be brief.\nCite files.", metadata: { extra: { "system[1].cache_control": { type: "ephemeral" } } } });
    expect(items[3]).toStrictEqual({ id: "t1:2.0", type: "tool-result", role: "tool", callId: "toolu_1", toolName: "read_file", output: "{}", isError: false, kind: "tool", metadata: {} });
  });

  test("a tool_use and a tool_result with an empty id (compatible servers) import, with no tool name guessed for the result", () => {
    const items = importAnthropicMessages([
      { role: "assistant", content: [{ type: "tool_use", id: "", name: "ls", input: {} }, { type: "tool_use", id: "", name: "wc", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "", content: "a.ts" }] },
    ]);
    expect(items).toStrictEqual([
      { id: "msg-0", type: "assistant", role: "assistant", text: "", toolCalls: [{ id: "", name: "ls", arguments: "{}", kind: "tool" }, { id: "", name: "wc", arguments: "{}", kind: "tool" }], metadata: {} },
      { id: "msg-1.0", type: "tool-result", role: "tool", callId: "", output: "a.ts", isError: false, kind: "tool", metadata: {} },
    ]);
  });

  test("keeps unknown fields and blocks verbatim in metadata.extra", () => {
    const citations = [{ type: "char_location", cited_text: "x" }];
    const serverTool = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "ctxpipe" } };
    const [assistant, result] = importAnthropicMessages([
      { role: "assistant", id: "msg_01", stop_reason: "tool_use", content: [{ type: "text", text: "See", citations }, serverTool] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t", cache_control: { type: "ephemeral" }, content: [{ type: "image", source: { type: "url", url: "https://x" } }] }] },
    ]);
    expect(assistant?.metadata).toStrictEqual({ extra: { id: "msg_01", stop_reason: "tool_use", "content[0].citations": citations, parts: [serverTool] } });
    expect(assistant?.metadata.extra?.["content[0].citations"]).toBe(citations);
    expect(result?.metadata).toStrictEqual({ extra: { "content[0].cache_control": { type: "ephemeral" }, parts: [{ type: "image", source: { type: "url", url: "https://x" } }] } });
  });

  test.for<{ name: string; input: unknown; index: number; id?: string; path: Array<string | number>; field: string }>([
    { name: "input that is not an array", input: "hello", index: 0, path: [], field: "(record)" },
    { name: "a null record", input: [null], index: 0, path: [], field: "(record)" },
    { name: "an unknown role", input: [{ role: "system", content: "x" }], index: 0, path: ["role"], field: "role" },
    { name: "content of the wrong type", input: [{ role: "user", content: 5 }], index: 0, path: ["content"], field: "content" },
    { name: "a block that is not an object", input: [{ role: "user", content: ["hi"] }], index: 0, path: ["content", 0], field: "content[0]" },
    { name: "a block without a type", input: [{ role: "user", content: [{ text: "hi" }] }], index: 0, path: ["content", 0, "type"], field: "content[0].type" },
    { name: "a text block without text", input: [{ role: "assistant", content: [{ type: "text" }] }], index: 0, path: ["content", 0, "text"], field: "content[0].text" },
    { name: "a tool_use without a name", input: [{ role: "assistant", content: [{ type: "tool_use", id: "toolu_1", input: {} }] }], index: 0, path: ["content", 0, "name"], field: "content[0].name" },
    { name: "a tool_use input that is a number", input: [{ role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "f", input: 4 }] }], index: 0, path: ["content", 0, "input"], field: "content[0].input" },
    { name: "a tool_result without tool_use_id", input: [{ role: "user", content: [{ type: "tool_result", content: "x" }] }], index: 0, path: ["content", 0, "tool_use_id"], field: "content[0].tool_use_id" },
    { name: "a tool_result is_error that is not a boolean", input: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", is_error: 1 }] }], index: 0, path: ["content", 0, "is_error"], field: "content[0].is_error" },
    { name: "an image without a source", input: [{ role: "user", content: [{ type: "image" }] }], index: 0, path: ["content", 0, "source"], field: "content[0].source" },
    { name: "a base64 image without data", input: [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png" } }] }], index: 0, path: ["content", 0, "source", "data"], field: "content[0].source.data" },
    { name: "a record with its own id", input: [{ id: "msg_01", role: "assistant", content: 1 }], index: 0, id: "msg_01", path: ["content"], field: "content" },
  ])("rejects $name", ({ input, index, id, path, field }) => {
    const error = catchInvalidInput(() => importAnthropicMessages(input));
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "Anthropic message", index, id, path });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain(`Anthropic message[${index}]${id === undefined ? "" : ` (id "${id}")`}, field ${field}:`);
  });

  test("lists every problem of the input in one error", () => {
    const error = catchInvalidInput(() =>
      importAnthropicMessages([
        { role: "user", content: "fine" },
        { role: "assistant", content: [{ type: "tool_use", input: {} }] },
        [],
        { role: "user", content: [{ type: "tool_result" }, { type: "text", text: 3 }] },
      ]),
    );
    expect(error.issues).toStrictEqual([
      { index: 1, id: undefined, path: ["content", 0, "id"], message: "a tool_use block needs its id" },
      { index: 1, id: undefined, path: ["content", 0, "name"], message: "a tool_use block needs the tool name" },
      { index: 2, id: undefined, path: [], message: "expected an object, got an array" },
      { index: 3, id: undefined, path: ["content", 0, "tool_use_id"], message: "a tool_result block needs the tool_use_id it answers" },
      { index: 3, id: undefined, path: ["content", 1, "text"], message: "expected a string, got 3" },
    ]);
  });

  test("rejects options that do not validate", () => {
    expect(() => importAnthropicMessages([], { system: [{ type: "image" }] as never })).toThrow(expect.objectContaining({ name: "PluginOptionsError", code: "OPTIONS_INVALID" }));
  });

  test("imports an Anthropic tool loop that the pipeline builds", async () => {
    const items = importAnthropicMessages([
      { role: "user", content: "Compare a.json and b.json" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Read both.", signature: "sig" },
          { type: "tool_use", id: "toolu_a", name: "read_file", input: { path: "a.json" } },
          { type: "tool_use", id: "toolu_b", name: "read_file", input: { path: "b.json" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: '{"port":80}' },
          { type: "tool_result", tool_use_id: "toolu_b", content: [{ type: "text", text: "missing" }], is_error: true },
          { type: "text", text: "Hurry." },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "b.json is missing." }] },
    ]);
    const result = await createPipeline().build(items, { system: "Be brief." });
    expect(result.request.messages).toStrictEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Compare a.json and b.json" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "toolu_a", type: "function", function: { name: "read_file", arguments: '{"path":"a.json"}' } },
          { id: "toolu_b", type: "function", function: { name: "read_file", arguments: '{"path":"b.json"}' } },
        ],
      },
      { role: "tool", tool_call_id: "toolu_a", content: '{"port":80}' },
      { role: "tool", tool_call_id: "toolu_b", content: "Error: missing" },
      { role: "user", content: "Hurry." },
      { role: "assistant", content: "b.json is missing." },
      // The history ends with the assistant: repair-orphans asks it to continue (OAI-017, ANT-015, GEM-016).
      { role: "user", content: "Continue." },
    ]);
    expect(result.includedIds).toStrictEqual(["msg-0", "msg-1", "msg-2.0", "msg-2.1", "msg-2", "msg-3"]);
  });

  test("any input either imports or throws InvalidInputError, never a TypeError", () => {
    const keys = ["role", "content", "type", "text", "source", "media_type", "data", "url", "file_id", "title", "id", "name", "input", "tool_use_id", "is_error", "thinking", "signature"];
    const labels = ["user", "assistant", "text", "image", "document", "base64", "url", "file", "tool_use", "tool_result", "thinking", "redacted_thinking"];
    fc.assert(fc.property(arbitraryInput(keys, labels), (input) => returnsOrThrowsInvalidInput(() => importAnthropicMessages(input))), { numRuns: 500 });
  });
});
