import type { Item } from "@ctxpipe/core";
import type { ModelMessage } from "ai";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { catchInvalidInput, returnsOrThrowsInvalidInput } from "./__fixtures__/catch-invalid-input.js";
import { importModelMessages } from "./import-model-messages.js";
import { renderModelMessages } from "./render-model-messages.js";

const signed = { anthropic: { signature: "sig-1" } };

describe("importModelMessages", () => {
  test.for<{ name: string; message: ModelMessage; expected: Item[] }>([
    {
      name: "system message, provider options kept",
      message: { role: "system", content: "Be brief.", providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } },
      expected: [{ id: "msg-0", type: "system", role: "system", text: "Be brief.", metadata: { extra: { aiSdk: { providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } } } } }],
    },
    {
      name: "user message with string content",
      message: { role: "user", content: "hi" },
      expected: [{ id: "msg-0", type: "user", role: "user", text: "hi", metadata: {} }],
    },
    {
      name: "user message with text, image and file parts",
      message: {
        role: "user",
        content: [
          { type: "text", text: "Compare" },
          { type: "image", image: "https://example.com/a.png" },
          { type: "file", mediaType: "application/pdf", data: "JVBER", filename: "spec.pdf" },
          { type: "file", mediaType: "text/plain", data: { type: "text", text: "inline" } },
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
            { type: "image", url: "https://example.com/a.png" },
            { type: "file", data: "JVBER", mediaType: "application/pdf", filename: "spec.pdf" },
          ],
          metadata: {
            extra: {
              aiSdk: {
                content: [
                  { type: "text", text: "Compare" },
                  { type: "image", image: "https://example.com/a.png" },
                  { type: "file", mediaType: "application/pdf", data: "JVBER", filename: "spec.pdf" },
                  { type: "file", mediaType: "text/plain", data: { type: "text", text: "inline" } },
                  { type: "text", text: "these" },
                ],
                parts: [{ type: "file", mediaType: "text/plain", data: { type: "text", text: "inline" } }],
              },
            },
          },
        },
      ],
    },
    {
      name: "assistant with signed reasoning, text and two calls",
      message: {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Look both up.", providerOptions: signed },
          { type: "text", text: "Checking." },
          { type: "tool-call", toolCallId: "call_1", toolName: "weather", input: { city: "Paris" } },
          { type: "tool-call", toolCallId: "call_2", toolName: "weather", input: { city: "Oslo" }, providerOptions: { openai: { itemId: "fc_2" } } },
        ],
      },
      expected: [
        {
          id: "msg-0",
          type: "assistant",
          role: "assistant",
          text: "Checking.",
          toolCalls: [
            { id: "call_1", name: "weather", arguments: '{"city":"Paris"}', kind: "tool" },
            { id: "call_2", name: "weather", arguments: '{"city":"Oslo"}', kind: "tool" },
          ],
          reasoning: [{ text: "Look both up.", signature: "sig-1" }],
          metadata: {
            extra: {
              aiSdk: {
                content: [
                  { type: "reasoning", text: "Look both up.", providerOptions: signed },
                  { type: "text", text: "Checking." },
                  { type: "tool-call", toolCallId: "call_1", toolName: "weather", input: { city: "Paris" } },
                  { type: "tool-call", toolCallId: "call_2", toolName: "weather", input: { city: "Oslo" }, providerOptions: { openai: { itemId: "fc_2" } } },
                ],
              },
            },
          },
        },
      ],
    },
    {
      name: "assistant with redacted reasoning",
      message: { role: "assistant", content: [{ type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "xyz" } } }, { type: "text", text: "Done." }] },
      expected: [
        {
          id: "msg-0",
          type: "assistant",
          role: "assistant",
          text: "Done.",
          toolCalls: [],
          reasoning: [{ text: "xyz", redacted: true }],
          metadata: { extra: { aiSdk: { content: [{ type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "xyz" } } }, { type: "text", text: "Done." }] } } },
        },
      ],
    },
    {
      name: "assistant with a provider-executed call, its result and an approval request: kept as parts",
      message: {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "ws_1", toolName: "web_search", input: { query: "x" }, providerExecuted: true },
          { type: "tool-result", toolCallId: "ws_1", toolName: "web_search", output: { type: "json", value: [{ url: "https://a" }] } },
          { type: "text", text: "Found it." },
          { type: "tool-call", toolCallId: "call_3", toolName: "delete_file", input: { path: "/tmp/a" } },
          { type: "tool-approval-request", approvalId: "ap_1", toolCallId: "call_3" },
        ],
      },
      expected: [
        {
          id: "msg-0",
          type: "assistant",
          role: "assistant",
          text: "Found it.",
          toolCalls: [{ id: "call_3", name: "delete_file", arguments: '{"path":"/tmp/a"}', kind: "tool" }],
          metadata: {
            extra: {
              aiSdk: {
                content: [
                  { type: "tool-call", toolCallId: "ws_1", toolName: "web_search", input: { query: "x" }, providerExecuted: true },
                  { type: "tool-result", toolCallId: "ws_1", toolName: "web_search", output: { type: "json", value: [{ url: "https://a" }] } },
                  { type: "text", text: "Found it." },
                  { type: "tool-call", toolCallId: "call_3", toolName: "delete_file", input: { path: "/tmp/a" } },
                  { type: "tool-approval-request", approvalId: "ap_1", toolCallId: "call_3" },
                ],
                parts: [
                  { type: "tool-call", toolCallId: "ws_1", toolName: "web_search", input: { query: "x" }, providerExecuted: true },
                  { type: "tool-result", toolCallId: "ws_1", toolName: "web_search", output: { type: "json", value: [{ url: "https://a" }] } },
                  { type: "tool-approval-request", approvalId: "ap_1", toolCallId: "call_3" },
                ],
              },
            },
          },
        },
      ],
    },
    {
      name: "assistant with a raw string input (a call the AI SDK could not parse)",
      message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_4", toolName: "run", input: '{"cmd": "ls' }] },
      expected: [
        {
          id: "msg-0",
          type: "assistant",
          role: "assistant",
          text: "",
          toolCalls: [{ id: "call_4", name: "run", arguments: '"{\\"cmd\\": \\"ls"', kind: "tool" }],
          metadata: { extra: { aiSdk: { content: [{ type: "tool-call", toolCallId: "call_4", toolName: "run", input: '{"cmd": "ls' }] } } },
        },
      ],
    },
  ])("$name", ({ message, expected }) => {
    expect(importModelMessages([message])).toEqual(expected);
  });

  const result = (output: unknown) => ({ type: "tool-result", toolCallId: "call_1", toolName: "weather", output }) as const;
  test.for<{ name: string; output: unknown; text: string; isError: boolean }>([
    { name: "text", output: { type: "text", value: "18°C" }, text: "18°C", isError: false },
    { name: "json", output: { type: "json", value: { temp: 18 } }, text: '{"temp":18}', isError: false },
    { name: "error-text", output: { type: "error-text", value: "timeout" }, text: "timeout", isError: true },
    { name: "error-json", output: { type: "error-json", value: { code: 504 } }, text: '{"code":504}', isError: true },
    { name: "content", output: { type: "content", value: [{ type: "text", text: "a chart:" }, { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBOR" } }] }, text: "a chart:", isError: false },
    { name: "execution-denied with a reason", output: { type: "execution-denied", reason: "not today" }, text: "not today", isError: false },
    { name: "execution-denied without a reason", output: { type: "execution-denied" }, text: "Tool execution denied.", isError: false },
  ])("tool result with a $name output: its text, and the part kept", ({ output, text, isError }) => {
    const part = result(output);
    expect(importModelMessages([{ role: "tool", content: [part as never] }])).toEqual([
      { id: "msg-0.0", type: "tool-result", role: "tool", callId: "call_1", toolName: "weather", output: text, isError, kind: "tool", metadata: { extra: { aiSdk: { part } } } },
    ]);
  });

  test("a tool message with several results gives one item each; approval responses go with the first", () => {
    const response = { type: "tool-approval-response", approvalId: "ap_1", approved: true } as const;
    const items = importModelMessages([
      { role: "tool", content: [result({ type: "text", value: "a" }) as never, response, { ...result({ type: "text", value: "b" }), toolCallId: "call_2" } as never], providerOptions: { x: { y: 1 } } },
    ]);
    expect(items.map((item) => [item.id, item.type, item.metadata.extra?.aiSdk])).toEqual([
      ["msg-0.0", "tool-result", { part: result({ type: "text", value: "a" }), providerOptions: { x: { y: 1 } }, approvalResponses: [response] }],
      ["msg-0.2", "tool-result", { part: { ...result({ type: "text", value: "b" }), toolCallId: "call_2" } }],
    ]);
  });

  test("a tool message with only approval responses becomes an empty assistant item carrying them", () => {
    const response = { type: "tool-approval-response", approvalId: "ap_1", approved: false, reason: "no" } as const;
    expect(importModelMessages([{ role: "tool", content: [response] }])).toEqual([
      { id: "msg-0", type: "assistant", role: "assistant", text: "", toolCalls: [], metadata: { extra: { aiSdk: { approvalResponses: [response] } } } },
    ]);
  });

  test("images by URL object or base64 become attachments; bytes stay as they are, and go back as they came", () => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    const message: ModelMessage = {
      role: "user",
      content: [
        { type: "image", image: new URL("https://example.com/a.png") },
        { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBOR" } },
        { type: "file", mediaType: "image/png", data: bytes },
        { type: "text", text: "Which is newer?" },
      ],
    };
    const [item] = importModelMessages([message]);
    expect(item).toMatchObject({
      attachments: [
        { type: "image", url: "https://example.com/a.png" },
        { type: "image", url: "data:image/png;base64,iVBOR" },
      ],
      metadata: { extra: { aiSdk: { parts: [{ type: "file", mediaType: "image/png", data: bytes }] } } },
    });
    const sent = renderModelMessages([item!]).messages[0]!;
    expect(sent.content).toEqual(message.content);
    expect((sent.content as Array<{ data?: unknown }>)[2]?.data).toBe(bytes);
  });

  test("ids: position with a prefix, or idOf", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
    ];
    expect(importModelMessages(messages, { idPrefix: "t1-" }).map((item) => item.id)).toEqual(["t1-0", "t1-1"]);
    expect(importModelMessages(messages, { idOf: (message, index) => `${message.role}:${index}` }).map((item) => item.id)).toEqual(["user:0", "assistant:1"]);
  });

  test("the same message object at the same position gives the same item objects, frozen; a new object, new ones", () => {
    const first: ModelMessage = { role: "user", content: "hello" };
    const second: ModelMessage = { role: "assistant", content: [{ type: "text", text: "hi" }] };
    const before = importModelMessages([first, second]);
    const after = importModelMessages([first, second, { role: "user", content: "more" }]);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(Object.isFrozen(after[1])).toBe(true);
    // Moved to another position, a message gets another id: new items.
    expect(importModelMessages([second, first])[1]).not.toBe(before[0]);
    // Another prefix gives other ids: new items.
    expect(importModelMessages([first], { idPrefix: "x-" })[0]).not.toBe(before[0]);
  });

  test("the input is never changed", () => {
    const messages: ModelMessage[] = [
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c", toolName: "t", input: { a: [1] } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "t", output: { type: "json", value: { b: 2 } } }] },
    ];
    const copy = structuredClone(messages);
    importModelMessages(messages);
    expect(messages).toEqual(copy);
    expect(Object.isFrozen(messages[0])).toBe(false);
  });

  test.for<{ name: string; messages: unknown; error: { index: number; id: string | undefined; path: ReadonlyArray<string | number> }; message: string }>([
    {
      name: "not an array",
      messages: { role: "user" },
      error: { index: 0, id: undefined, path: [] },
      message: "Invalid AI SDK model message[0], field (record): expected an array of ModelMessages, got an object",
    },
    {
      name: "an unknown role",
      messages: [{ role: "function", content: "x" }],
      error: { index: 0, id: "msg-0", path: ["role"] },
      message: 'Invalid AI SDK model message[0] (id "msg-0"), field role: expected the role "system", "user", "assistant" or "tool", got "function"',
    },
    {
      name: "a tool call without a name",
      messages: [{ role: "user", content: "a" }, { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", input: {} }] }],
      error: { index: 1, id: "msg-1", path: ["content", 0, "toolName"] },
      message: 'Invalid AI SDK model message[1] (id "msg-1"), field content[0].toolName: a tool-call part needs the tool name (a non-empty string), got nothing',
    },
    {
      name: "a tool result without output",
      messages: [{ role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "t" }] }],
      error: { index: 0, id: "msg-0", path: ["content", 0, "output"] },
      message: 'Invalid AI SDK model message[0] (id "msg-0"), field content[0].output: a tool-result part needs its output ({ type, value }), got nothing',
    },
    {
      name: "a system message with parts",
      messages: [{ role: "system", content: [{ type: "text", text: "x" }] }],
      error: { index: 0, id: "msg-0", path: ["content"] },
      message: 'Invalid AI SDK model message[0] (id "msg-0"), field content: a system message\'s content is its text (a string), got an array',
    },
    {
      name: "a text part without text",
      messages: [{ role: "user", content: [{ type: "text" }] }],
      error: { index: 0, id: "msg-0", path: ["content", 0, "text"] },
      message: 'Invalid AI SDK model message[0] (id "msg-0"), field content[0].text: a text part needs its text (a string), got nothing',
    },
    {
      name: "an input that is not JSON",
      messages: [{ role: "assistant", content: [{ type: "tool-call", toolCallId: "c", toolName: "t", input: { n: 1n } }] }],
      error: { index: 0, id: "msg-0", path: ["content", 0, "input"] },
      message: 'Invalid AI SDK model message[0] (id "msg-0"), field content[0].input: expected a value that can be written as JSON (Do not know how to serialize a BigInt)',
    },
  ])("bad input: $name", ({ messages, error, message }) => {
    const thrown = catchInvalidInput(() => importModelMessages(messages as ModelMessage[]));
    expect({ index: thrown.index, id: thrown.id, path: thrown.path, message: thrown.message }).toEqual({ ...error, message });
  });

  test("an id idOf gives that is not a non-empty string is bad input, named by index", () => {
    const thrown = catchInvalidInput(() => importModelMessages([{ role: "user", content: "a" }], { idOf: () => "" }));
    expect({ index: thrown.index, id: thrown.id, path: thrown.path, message: thrown.message }).toEqual({
      index: 0,
      id: undefined,
      path: [],
      message: 'Invalid AI SDK model message[0], field (record): idOf gave "" for this message; an id is a non-empty string',
    });
  });

  test("every problem of the list is in one error", () => {
    const thrown = catchInvalidInput(() => importModelMessages([{ role: "user" }, "x", { role: "tool", content: "y" }] as unknown as ModelMessage[]));
    expect(thrown.issues.map((issue) => [issue.index, issue.path.join(".")])).toEqual([
      [0, "content"],
      [1, ""],
      [2, "content"],
    ]);
  });

  test("any input either imports or throws InvalidInputError, never a TypeError", () => {
    const keys = ["role", "content", "type", "text", "toolCallId", "toolName", "input", "output", "value", "providerOptions", "image", "data", "mediaType"];
    const labels = ["system", "user", "assistant", "tool", "text", "tool-call", "tool-result", "reasoning", "json", "error-text", "content", "execution-denied", "file", "image"];
    const value = fc.letrec<{ value: unknown; record: Record<string, unknown> }>((tie) => ({
      value: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.jsonValue({ maxDepth: 1 }), fc.constantFrom(...labels), fc.array(tie("value"), { maxLength: 3 }), tie("record")),
      record: fc.dictionary(fc.constantFrom(...keys), tie("value"), { maxKeys: 6 }),
    }));
    fc.assert(
      fc.property(fc.array(fc.oneof(value.record, value.value), { maxLength: 6 }), (messages) => returnsOrThrowsInvalidInput(() => importModelMessages(messages as ModelMessage[]))),
      { numRuns: 300 },
    );
  });
});
