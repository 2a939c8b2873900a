import type { Item } from "@ctxpipe/core";
import { convertToModelMessages, type UIMessage } from "ai";
import { describe, expect, test } from "vitest";
import { catchInvalidInput } from "./__fixtures__/catch-invalid-input.js";
import { importModelMessages } from "./import-model-messages.js";
import { importUIMessages } from "./import-ui-messages.js";

const weather = (state: Record<string, unknown>): UIMessage["parts"][number] =>
  ({ type: "tool-weather", toolCallId: "call_1", input: { city: "Paris" }, ...state }) as unknown as UIMessage["parts"][number];

/** What a tool part in each state becomes: the call, and the result's output and isError (or no result). */
const states: Array<{ state: string; part: UIMessage["parts"][number]; result: { output: string; isError: boolean } | undefined }> = [
  { state: "input-streaming (an aborted stream)", part: weather({ state: "input-streaming", input: undefined, rawInput: '{"ci' }), result: undefined },
  { state: "input-available", part: weather({ state: "input-available" }), result: undefined },
  { state: "approval-requested", part: weather({ state: "approval-requested", approval: { id: "ap_1" } }), result: undefined },
  { state: "approval-responded, approved", part: weather({ state: "approval-responded", approval: { id: "ap_1", approved: true } }), result: undefined },
  { state: "approval-responded, denied", part: weather({ state: "approval-responded", approval: { id: "ap_1", approved: false, reason: "not now" } }), result: { output: "not now", isError: false } },
  { state: "output-available, text", part: weather({ state: "output-available", output: "18°C" }), result: { output: "18°C", isError: false } },
  { state: "output-available, JSON", part: weather({ state: "output-available", output: { temp: 18 } }), result: { output: '{"temp":18}', isError: false } },
  { state: "output-error", part: weather({ state: "output-error", errorText: "timeout" }), result: { output: "timeout", isError: true } },
  { state: "output-denied", part: weather({ state: "output-denied", approval: { id: "ap_1", approved: false } }), result: { output: "Tool call execution denied.", isError: true } },
];

describe("importUIMessages", () => {
  test.for(states)("a tool part in state $state", ({ part, result }) => {
    const items = importUIMessages([{ id: "m1", role: "assistant", parts: [{ type: "text", text: "Checking." }, part] }]);
    const [assistant, toolResult, ...rest] = items;
    expect(rest).toEqual([]);
    expect(assistant).toMatchObject({ id: "m1", type: "assistant", text: "Checking.", toolCalls: [{ id: "call_1", name: "weather" }] });
    const { input: _input, output: _output, errorText: _errorText, ...fields } = part as Record<string, unknown>;
    expect(assistant?.metadata.extra?.aiSdk).toMatchObject({ toolParts: [fields] });
    if (result === undefined) expect(toolResult).toBeUndefined();
    else expect(toolResult).toMatchObject({ id: "m1.1", type: "tool-result", callId: "call_1", toolName: "weather", ...result, metadata: { extra: { aiSdk: { toolParts: [fields] } } } });
  });

  test("steps split an assistant message: each step's calls, then their results, then the next step", () => {
    const message: UIMessage = {
      id: "m1",
      role: "assistant",
      metadata: { model: "gpt-5" },
      parts: [
        { type: "step-start" },
        { type: "reasoning", text: "Look it up.", providerMetadata: { anthropic: { signature: "s1" } } },
        { type: "dynamic-tool", toolName: "search", toolCallId: "c1", state: "output-available", input: { q: "x" }, output: ["a", "b"] },
        { type: "source-url", sourceId: "s1", url: "https://example.com" },
        { type: "step-start" },
        { type: "text", text: "Found a and b." },
        { type: "data-progress", data: { done: true } },
      ],
    };
    const items = importUIMessages([{ id: "u1", role: "user", parts: [{ type: "text", text: "Search x" }] }, message]);
    expect(items.map((item) => [item.id, item.type])).toEqual([
      ["u1", "user"],
      ["m1", "assistant"],
      ["m1.2", "tool-result"],
      ["m1.4", "assistant"],
    ]);
    expect(items[1]).toMatchObject({ reasoning: [{ text: "Look it up.", signature: "s1" }], toolCalls: [{ id: "c1", name: "search", arguments: '{"q":"x"}' }] });
    expect(items[1]?.metadata.extra?.aiSdk).toMatchObject({ uiMetadata: { model: "gpt-5" }, uiParts: [{ type: "source-url", sourceId: "s1", url: "https://example.com" }] });
    expect(items[2]).toMatchObject({ output: '["a","b"]', isError: false });
    expect(items[3]).toMatchObject({ text: "Found a and b.", metadata: { extra: { aiSdk: { uiParts: [{ type: "data-progress", data: { done: true } }] } } } });
  });

  test("a steering message becomes a user item between the steps", () => {
    const items = importUIMessages([
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "text", text: "Working." },
          { type: "steering-message", id: "s1", parts: [{ type: "text", text: "Use the staging database." }] },
          { type: "text", text: "Switching to staging." },
        ],
      } as UIMessage,
    ]);
    expect(items.map((item) => [item.id, item.type, "text" in item ? item.text : ""])).toEqual([
      ["a1", "assistant", "Working."],
      ["a1.1", "user", "Use the staging database."],
      ["a1.1.1", "assistant", "Switching to staging."],
    ]);
    const thrown = catchInvalidInput(() => importUIMessages([{ id: "a1", role: "assistant", parts: [{ type: "steering-message", id: "s1", parts: [{ type: "text" }] }] } as unknown as UIMessage]));
    expect(thrown.path).toEqual(["parts", 0, "parts", 0, "text"]);
  });

  test("a provider-executed tool stays inside its assistant item, with its result", () => {
    const items = importUIMessages([
      {
        id: "m1",
        role: "assistant",
        parts: [{ type: "tool-web_search", toolCallId: "ws1", providerExecuted: true, state: "output-available", input: { query: "x" }, output: { hits: 1 } } as UIMessage["parts"][number], { type: "text", text: "One hit." }],
      },
    ]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ type: "assistant", text: "One hit.", toolCalls: [] });
    expect(items[0]?.metadata.extra?.aiSdk).toMatchObject({
      parts: [
        { type: "tool-call", toolCallId: "ws1", toolName: "web_search", input: { query: "x" }, providerExecuted: true },
        { type: "tool-result", toolCallId: "ws1", toolName: "web_search", output: { type: "json", value: { hits: 1 } } },
      ],
    });
  });

  test("user files: images and data: URLs become attachments, other files stay as parts", () => {
    const [user] = importUIMessages([
      {
        id: "u1",
        role: "user",
        parts: [
          { type: "text", text: "Look" },
          { type: "file", mediaType: "image/png", url: "https://example.com/a.png" },
          { type: "file", mediaType: "application/pdf", url: "data:application/pdf;base64,JVBER", filename: "a.pdf" },
          { type: "file", mediaType: "application/pdf", url: "https://example.com/b.pdf" },
        ],
      },
    ]);
    expect(user).toMatchObject({
      text: "Look",
      attachments: [
        { type: "image", url: "https://example.com/a.png" },
        { type: "file", data: "data:application/pdf;base64,JVBER", mediaType: "application/pdf", filename: "a.pdf" },
      ],
      metadata: { extra: { aiSdk: { parts: [{ type: "file", mediaType: "application/pdf", data: "https://example.com/b.pdf" }] } } },
    });
  });

  test("a finished UI history gives the same texts, calls and results as its convertToModelMessages form", async () => {
    const messages: UIMessage[] = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "text", text: "Checking." },
          weather({ state: "output-available", output: { temp: 18 } }),
          weather({ toolCallId: "call_2", state: "output-error", errorText: "timeout" }),
          { type: "step-start" },
          { type: "text", text: "18°C; the second lookup timed out." },
        ],
      },
    ];
    const essentials = (items: Item[]) =>
      items.map((item) => (item.type === "tool-result" ? [item.type, item.callId, item.output, item.isError] : item.type === "assistant" ? [item.type, item.text, item.toolCalls.map((call) => [call.id, call.name, call.arguments])] : [item.type, "text" in item ? item.text : ""]));
    expect(essentials(importUIMessages(messages))).toEqual(essentials(importModelMessages(await convertToModelMessages(messages))));
  });

  test("the same message object gives the same items; the input is never changed", () => {
    const message: UIMessage = { id: "m1", role: "assistant", parts: [{ type: "text", text: "hi" }, weather({ state: "output-available", output: "18°C" })] };
    const copy = structuredClone(message);
    const first = importUIMessages([message]);
    const again = importUIMessages([message]);
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    expect(message).toEqual(copy);
  });

  test.for<{ name: string; messages: unknown; error: { index: number; id: string | undefined; path: ReadonlyArray<string | number> } }>([
    { name: "no id", messages: [{ role: "user", parts: [] }], error: { index: 0, id: undefined, path: ["id"] } },
    { name: "no parts", messages: [{ id: "m1", role: "user" }], error: { index: 0, id: "m1", path: ["parts"] } },
    { name: "a tool role", messages: [{ id: "m1", role: "tool", parts: [] }], error: { index: 0, id: "m1", path: ["role"] } },
    { name: "a tool part without a call id", messages: [{ id: "m1", role: "assistant", parts: [{ type: "tool-x", state: "input-available", input: {} }] }], error: { index: 0, id: "m1", path: ["parts", 0, "toolCallId"] } },
    { name: "an unknown tool state", messages: [{ id: "m1", role: "assistant", parts: [{ type: "tool-x", toolCallId: "c", state: "done", input: {} }] }], error: { index: 0, id: "m1", path: ["parts", 0, "state"] } },
    { name: "an output-error without errorText", messages: [{ id: "m1", role: "assistant", parts: [{ type: "dynamic-tool", toolName: "x", toolCallId: "c", state: "output-error", input: {} }] }], error: { index: 0, id: "m1", path: ["parts", 0, "errorText"] } },
    { name: "a text part without text", messages: [{ id: "m1", role: "user", parts: [{ type: "text" }] }], error: { index: 0, id: "m1", path: ["parts", 0, "text"] } },
  ])("bad input: $name", ({ messages, error }) => {
    const thrown = catchInvalidInput(() => importUIMessages(messages as UIMessage[]));
    expect({ index: thrown.index, id: thrown.id, path: thrown.path }).toEqual(error);
    expect(thrown.message).toMatch(/^Invalid AI SDK UI message\[0\]/);
  });
});
