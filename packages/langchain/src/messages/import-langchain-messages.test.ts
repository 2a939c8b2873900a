import { createPipeline, InvalidInputError, type ItemInput, parseItems } from "@ctxpipe/core";
import { AIMessage, AIMessageChunk, type BaseMessage, ChatMessage, FunctionMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { importLangChainMessages } from "./import-langchain-messages.js";

function cyclic(): Record<string, unknown> {
  const args: Record<string, unknown> = { a: 1 };
  args.self = args;
  return args;
}

describe("importLangChainMessages", () => {
  test.for<{ name: string; message: BaseMessage | Record<string, unknown>; expected: ItemInput }>([
    { name: "human message, string content", message: new HumanMessage({ content: "Hello", id: "h1" }), expected: { id: "h1", type: "user", text: "Hello" } },
    {
      name: "human message without id: id from position",
      message: new HumanMessage("Hello"),
      expected: { id: "lc-0", type: "user", text: "Hello", metadata: { extra: { langchain: { idFromPosition: true } } } },
    },
    {
      name: "human message with text, image and file blocks in every form",
      message: new HumanMessage({
        id: "h1",
        content: [
          { type: "text", text: "Compare" },
          { type: "text", text: "these" },
          { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
          { type: "image_url", image_url: "https://example.com/b.png" },
          { type: "image", url: "https://example.com/c.png" },
          { type: "image", source_type: "base64", data: "AAAA", mime_type: "image/jpeg" },
          { type: "file", data: "JVBER", mimeType: "application/pdf", metadata: { filename: "spec.pdf" } },
          { type: "file", fileId: "file-abc" },
        ],
      }),
      expected: {
        id: "h1",
        type: "user",
        text: "Compare\nthese",
        attachments: [
          { type: "image", url: "https://example.com/a.png", detail: "low" },
          { type: "image", url: "https://example.com/b.png" },
          { type: "image", url: "https://example.com/c.png" },
          { type: "image", url: "data:image/jpeg;base64,AAAA" },
          { type: "file", data: "JVBER", filename: "spec.pdf", mediaType: "application/pdf" },
          { type: "file", fileId: "file-abc" },
        ],
        metadata: {
          extra: {
            langchain: {
              content: [
                { type: "text", text: "Compare" },
                { type: "text", text: "these" },
                { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
                { type: "image_url", image_url: "https://example.com/b.png" },
                { type: "image", url: "https://example.com/c.png" },
                { type: "image", source_type: "base64", data: "AAAA", mime_type: "image/jpeg" },
                { type: "file", data: "JVBER", mimeType: "application/pdf", metadata: { filename: "spec.pdf" } },
                { type: "file", fileId: "file-abc" },
              ],
            },
          },
        },
      },
    },
    {
      name: "ai message with tool calls, thinking blocks, usage and response metadata",
      message: new AIMessage({
        id: "a1",
        content: [
          { type: "thinking", thinking: "The user wants weather.", signature: "sig-1" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
        ],
        tool_calls: [{ id: "call_1", name: "get_weather", args: { city: "Paris" }, type: "tool_call" }],
        // Typed by the message structure, which a plain AIMessage leaves open.
        usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } as never,
        response_metadata: { model_provider: "anthropic", stop_reason: "tool_use" },
      }),
      expected: {
        id: "a1",
        type: "assistant",
        text: "Let me look.",
        toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }],
        reasoning: [
          { text: "The user wants weather.", signature: "sig-1" },
          { text: "opaque", redacted: true },
        ],
        metadata: {
          extra: {
            langchain: {
              usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
              content: [
                { type: "thinking", thinking: "The user wants weather.", signature: "sig-1" },
                { type: "redacted_thinking", data: "opaque" },
                { type: "text", text: "Let me look." },
                { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
              ],
              response_metadata: { model_provider: "anthropic", stop_reason: "tool_use" },
            },
          },
        },
      },
    },
    {
      name: "ai message with an invalid tool call: no call, kept in metadata",
      message: new AIMessage({ id: "a2", content: "Trying.", invalid_tool_calls: [{ id: "call_2", name: "search", args: '{"q": ', error: "Malformed args." }] }),
      expected: {
        id: "a2",
        type: "assistant",
        text: "Trying.",
        toolCalls: [],
        metadata: { extra: { langchain: { invalid_tool_calls: [{ id: "call_2", name: "search", args: '{"q": ', error: "Malformed args." }] } } },
      },
    },
    {
      name: "ai message chunk with a call without id and v1 reasoning block",
      message: new AIMessageChunk({ id: "a3", content: [{ type: "reasoning", reasoning: "hmm" }], tool_calls: [{ name: "search", args: { q: "x" } }] }),
      expected: {
        id: "a3",
        type: "assistant",
        text: "",
        toolCalls: [{ id: "", name: "search", arguments: '{"q":"x"}' }],
        reasoning: [{ text: "hmm" }],
        metadata: { extra: { langchain: { content: [{ type: "reasoning", reasoning: "hmm" }] } } },
      },
    },
    {
      name: "tool message with error status, artifact and name",
      message: new ToolMessage({ id: "t1", content: "Error: city not found", tool_call_id: "call_1", status: "error", name: "get_weather", artifact: { raw: 404 } }),
      expected: {
        id: "t1",
        type: "tool-result",
        callId: "call_1",
        toolName: "get_weather",
        output: "Error: city not found",
        isError: true,
        metadata: { extra: { langchain: { artifact: { raw: 404 }, name: "get_weather" } } },
      },
    },
    { name: "system message", message: new SystemMessage({ content: "Be brief.", id: "s1" }), expected: { id: "s1", type: "system", text: "Be brief." } },
    {
      name: "ChatMessage with the assistant role",
      message: new ChatMessage({ content: "Sure.", role: "assistant", id: "g1" }),
      expected: { id: "g1", type: "assistant", text: "Sure.", toolCalls: [], metadata: { extra: { langchain: { type: "generic", role: "assistant" } } } },
    },
    {
      name: "plain object stored as { type, content }",
      message: { type: "human", content: "From the database", id: "p1" },
      expected: { id: "p1", type: "user", text: "From the database" },
    },
  ])("$name", ({ message, expected }) => {
    const items = importLangChainMessages([message]);
    expect(items).toEqual([expected]);
    // What the importer gives passes the item schema.
    expect(() => parseItems(items)).not.toThrow();
  });

  test("a tool message without a name takes the tool name of the call it answers", () => {
    const items = importLangChainMessages([
      new AIMessage({ id: "a", content: "", tool_calls: [{ id: "c1", name: "search", args: {} }] }),
      new ToolMessage({ id: "t", content: "found", tool_call_id: "c1" }),
    ]);
    expect(items[1]).toEqual({ id: "t", type: "tool-result", callId: "c1", toolName: "search", output: "found", isError: false });
  });

  test("gives the same item objects for the same message objects (the pipeline remembers per item)", () => {
    const history: BaseMessage[] = [new HumanMessage({ content: "a", id: "h" }), new AIMessage("b")];
    const first = importLangChainMessages(history);
    history.push(new HumanMessage("c"));
    const second = importLangChainMessages(history);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second).toHaveLength(3);
    // A message without an id read at another position gets the id of that position, not the remembered one.
    const moved = importLangChainMessages([history[1]!]);
    expect(moved[0]).not.toBe(first[1]);
    expect(moved[0]!.id).toBe("lc-0");
  });

  test("the same message object twice, even without an id, is one item twice: the pipeline sends it once", async () => {
    const question = new HumanMessage("What changed?");
    const items = importLangChainMessages([question, new AIMessage("Nothing."), question]);
    expect(items[2]).toBe(items[0]);
    const result = await createPipeline().build(items);
    expect(result.request.messages.map((message) => message.content)).toEqual(["What changed?", "Nothing.", "Continue."]);
    expect(result.report.entries[2]).toMatchObject({ id: "lc-0", decision: "dropped" });
  });

  test("never changes the messages", () => {
    const message = new AIMessage({ id: "a", content: [{ type: "text", text: "x" }], tool_calls: [{ id: "c", name: "f", args: { a: 1 } }], additional_kwargs: { k: 1 } });
    const before = JSON.stringify(message);
    const items = importLangChainMessages([message]);
    parseItems(items);
    expect(JSON.stringify(message)).toBe(before);
  });

  test.for<{ name: string; messages: unknown[]; issues: Array<{ index: number; id: string | undefined; path: Array<string | number>; message: string }> }>([
    {
      name: "not an object",
      messages: ["hello"],
      issues: [{ index: 0, id: undefined, path: [], message: 'expected a LangChain message (a BaseMessage or { type, content }), got string "hello"' }],
    },
    {
      name: "unknown type",
      messages: [{ type: "robot", content: "x", id: "r" }],
      issues: [{ index: 0, id: "r", path: ["type"], message: 'expected one of human, ai, system, tool (from _getType() or the field "type"), got string "robot"' }],
    },
    {
      name: "serialized message",
      messages: [{ lc: 1, type: "constructor", id: ["langchain_core", "messages", "HumanMessage"], kwargs: { content: "x" } }],
      issues: [{ index: 0, id: undefined, path: ["type"], message: "this is a serialized message: revive it with load() from @langchain/core/load first" }],
    },
    {
      name: "tool message without tool_call_id",
      messages: [new HumanMessage("q"), { type: "tool", content: "r", id: "t9" }],
      issues: [{ index: 1, id: "t9", path: ["tool_call_id"], message: "a ToolMessage needs the tool_call_id of the call it answers (a string), got undefined" }],
    },
    {
      name: "content that is a number, and a block without a type",
      messages: [
        { type: "human", content: 42, id: "h" },
        { type: "ai", content: [{ text: "x" }], id: "a" },
      ],
      issues: [
        { index: 0, id: "h", path: ["content"], message: "expected a string or an array of content blocks, got number 42" },
        { index: 1, id: "a", path: ["content", 0, "type"], message: "expected the block type (a string), got undefined" },
      ],
    },
    {
      name: "tool call without a name, and args that are an array",
      messages: [{ type: "ai", content: "", id: "a", tool_calls: [{ id: "c1", args: {} }, { id: "c2", name: "f", args: [1] }] }],
      issues: [
        { index: 0, id: "a", path: ["tool_calls", 0, "name"], message: "a tool call needs the tool name (a non-empty string), got undefined" },
        { index: 0, id: "a", path: ["tool_calls", 1, "args"], message: "expected the call's args to be an object, got an array" },
      ],
    },
    {
      name: "args with a cycle",
      messages: [{ type: "ai", content: "", id: "a", tool_calls: [{ id: "c1", name: "f", args: cyclic() }] }],
      issues: [{ index: 0, id: "a", path: ["tool_calls", 0, "args"], message: "the call's args cannot be written as JSON (a cycle, or a BigInt)" }],
    },
    {
      name: "RemoveMessage and FunctionMessage",
      messages: [new RemoveMessage({ id: "x" }), new FunctionMessage({ content: "r", name: "f", id: "fn" })],
      issues: [
        { index: 0, id: "x", path: ["type"], message: "a RemoveMessage is an instruction to the state's reducer, not a message: pass the messages the state holds after the update" },
        { index: 1, id: "fn", path: ["type"], message: "a FunctionMessage answers the legacy function_call API, which ctxpipe does not read: store tool calls and ToolMessages instead" },
      ],
    },
    {
      name: "ChatMessage with a role no chat model takes",
      messages: [new ChatMessage({ content: "x", role: "critic", id: "g" })],
      issues: [{ index: 0, id: "g", path: ["role"], message: 'a ChatMessage needs the role user, assistant or system to be sent to a chat model, got string "critic"' }],
    },
  ])("bad input: $name", ({ messages, issues }) => {
    let caught: unknown;
    try {
      importLangChainMessages(messages);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidInputError);
    expect((caught as InvalidInputError).issues).toEqual(issues);
    expect((caught as InvalidInputError).message).toContain(`LangChain message[${issues[0]!.index}]`);
  });

  test("a history that is not an array is a typed error", () => {
    expect(() => importLangChainMessages("nope" as never)).toThrow(InvalidInputError);
  });

  test("imported items build: a duplicate message (same id) is sent once and reported", async () => {
    const hello = new HumanMessage({ content: "hello", id: "h" });
    const result = await createPipeline().build(importLangChainMessages([hello, new AIMessage({ content: "hi", id: "a" }), hello, new HumanMessage({ content: "bye", id: "h2" })]));
    expect(result.request.messages.map((message) => message.content)).toEqual(["hello", "hi", "bye"]);
    expect(result.report.entries[2]).toMatchObject({ id: "h", decision: "dropped" });
  });
});
