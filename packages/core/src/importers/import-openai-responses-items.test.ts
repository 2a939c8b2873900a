import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { deepFreeze } from "../model/deep-freeze.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { arbitraryInput, returnsOrThrowsInvalidInput } from "./__fixtures__/arbitrary-input.js";
import { catchInvalidInput, errorShape } from "./__fixtures__/catch-invalid-input.js";
import { chatMessagesOf, neutralExchanges, REASONING_TOOL_LOOP, REASONING_TOOL_LOOP_AS_CHAT, responsesItemsOf } from "./__fixtures__/openai-responses-histories.js";
import { importOpenAIMessages } from "./import-openai-messages.js";
import { importOpenAIResponsesItems } from "./import-openai-responses-items.js";

const user = (text: string) => ({ role: "user", content: text });
const reasoning = (id: string, ...summary: string[]) => ({ type: "reasoning", id, summary: summary.map((text) => ({ type: "summary_text", text })), encrypted_content: `enc-${id}` });
const call = (callId: string, name = "read_file", id?: string) => ({ type: "function_call", call_id: callId, name, arguments: "{}", ...(id === undefined ? {} : { id, status: "completed" }) });
const output = (callId: string, text: string) => ({ type: "function_call_output", call_id: callId, output: text });
const outputMessage = (id: string, text: string) => ({ type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
/** The sequence's reference to a stored output message: its id, status and content as stored. */
const messageReference = (id: string, text: string) => ({ type: "message", id, status: "completed", content: [{ type: "output_text", text, annotations: [] }] });

describe("importOpenAIResponsesItems", () => {
  test.for<{ name: string; records: unknown[]; expected: Item[] }>([
    {
      name: "a user message without type (EasyInputMessage)",
      records: [{ role: "user", content: "Hello" }],
      expected: [{ id: "item-0", type: "user", role: "user", text: "Hello", metadata: {} }],
    },
    {
      name: 'a user message with type "message", its stored id and status in extra',
      records: [{ type: "message", id: "msg_u1", role: "user", status: "completed", content: [{ type: "input_text", text: "Hi" }, { type: "input_text", text: "there" }] }],
      expected: [{ id: "item-0", type: "user", role: "user", text: "Hi\nthere", metadata: { extra: { id: "msg_u1", status: "completed" } } }],
    },
    {
      name: "user images and files: by URL, data or file id → attachments; with an image by file id or a file by URL, the whole content list kept as stored",
      records: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "Compare" },
            { type: "input_image", image_url: "https://example.com/a.png", detail: "high" },
            { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto", file_id: null },
            { type: "input_image", file_id: "file-img", detail: "auto" },
            { type: "input_image", image_url: "https://example.com/b.png", detail: "original" },
            { type: "input_file", file_data: "data:application/pdf;base64,JVBER", filename: "spec.pdf" },
            { type: "input_file", file_id: "file-abc", detail: "low" },
            { type: "input_file", file_url: "https://example.com/c.pdf" },
            { type: "input_audio", input_audio: { data: "UklGR", format: "wav" } },
          ],
        },
      ],
      expected: [
        {
          id: "item-0",
          type: "user",
          role: "user",
          text: "Compare",
          attachments: [
            { type: "image", url: "https://example.com/a.png", detail: "high" },
            { type: "image", url: "data:image/png;base64,AAAA", detail: "auto" },
            { type: "file", data: "data:application/pdf;base64,JVBER", filename: "spec.pdf" },
            { type: "file", fileId: "file-abc" },
          ],
          metadata: {
            extra: {
              openaiResponses: {
                content: [
                  { type: "input_text", text: "Compare" },
                  { type: "input_image", image_url: "https://example.com/a.png", detail: "high" },
                  { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto", file_id: null },
                  { type: "input_image", file_id: "file-img", detail: "auto" },
                  { type: "input_image", image_url: "https://example.com/b.png", detail: "original" },
                  { type: "input_file", file_data: "data:application/pdf;base64,JVBER", filename: "spec.pdf" },
                  { type: "input_file", file_id: "file-abc", detail: "low" },
                  { type: "input_file", file_url: "https://example.com/c.pdf" },
                  { type: "input_audio", input_audio: { data: "UklGR", format: "wav" } },
                ],
              },
            },
          },
        },
      ],
    },
    {
      name: "a file id beside a file's data goes into the attachment; beside an image's URL, the content list is kept as stored",
      records: [
        {
          role: "user",
          content: [
            { type: "input_file", file_data: "data:application/pdf;base64,JVBER", file_id: "file-1", filename: "spec.pdf" },
            { type: "input_image", image_url: "https://example.com/a.png", detail: "auto", file_id: "file-2" },
          ],
        },
      ],
      expected: [
        {
          id: "item-0",
          type: "user",
          role: "user",
          text: "",
          attachments: [{ type: "file", data: "data:application/pdf;base64,JVBER", fileId: "file-1", filename: "spec.pdf" }],
          metadata: {
            extra: {
              openaiResponses: {
                content: [
                  { type: "input_file", file_data: "data:application/pdf;base64,JVBER", file_id: "file-1", filename: "spec.pdf" },
                  { type: "input_image", image_url: "https://example.com/a.png", detail: "auto", file_id: "file-2" },
                ],
              },
            },
          },
        },
      ],
    },
    {
      name: "a system message",
      records: [{ role: "system", content: "Be brief." }],
      expected: [{ id: "item-0", type: "system", role: "system", text: "Be brief.", metadata: {} }],
    },
    {
      name: "a developer message with text parts and an image: the content list kept as stored",
      records: [{ type: "message", role: "developer", content: [{ type: "input_text", text: "Rule 1" }, { type: "input_image", image_url: "https://example.com/logo.png", detail: "low" }] }],
      expected: [
        {
          id: "item-0",
          type: "system",
          role: "system",
          text: "Rule 1",
          metadata: { extra: { openaiResponses: { content: [{ type: "input_text", text: "Rule 1" }, { type: "input_image", image_url: "https://example.com/logo.png", detail: "low" }] } } },
        },
      ],
    },
    {
      name: "a user message with attachments only keeps no content list: the item holds all of it",
      records: [{ role: "user", content: [{ type: "input_text", text: "See" }, { type: "input_image", image_url: "https://example.com/a.png", detail: "low" }] }],
      expected: [{ id: "item-0", type: "user", role: "user", text: "See", attachments: [{ type: "image", url: "https://example.com/a.png", detail: "low" }], metadata: {} }],
    },
    {
      name: "an assistant message as plain text: no sequence needed",
      records: [{ role: "assistant", content: "Sure." }],
      expected: [{ id: "item-0", type: "assistant", role: "assistant", text: "Sure.", toolCalls: [], metadata: {} }],
    },
    {
      name: "an output message: its id, status, phase and content in the sequence",
      records: [{ ...outputMessage("msg_1", "Done."), phase: "commentary" }],
      expected: [
        {
          id: "item-0",
          type: "assistant",
          role: "assistant",
          text: "Done.",
          toolCalls: [],
          metadata: { extra: { openaiResponses: { sequence: [{ ...messageReference("msg_1", "Done."), phase: "commentary" }] } } },
        },
      ],
    },
    {
      name: "a phase the importer does not know stays in extra",
      records: [{ role: "assistant", content: "Hm.", phase: "draft" }],
      expected: [{ id: "item-0", type: "assistant", role: "assistant", text: "Hm.", toolCalls: [], metadata: { extra: { phase: "draft" } } }],
    },
    {
      name: "an output text's citations stay in extra under their path",
      records: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "See [1].", annotations: [{ type: "url_citation", url: "https://example.com", start_index: 4, end_index: 7, title: "Ex" }] }] }],
      expected: [
        {
          id: "item-0",
          type: "assistant",
          role: "assistant",
          text: "See [1].",
          toolCalls: [],
          metadata: { extra: { "content[0].annotations": [{ type: "url_citation", url: "https://example.com", start_index: 4, end_index: 7, title: "Ex" }] } },
        },
      ],
    },
    {
      name: "a refusal is the text of a message that has no other",
      records: [{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I can't help with that." }] }],
      expected: [{ id: "item-0", type: "assistant", role: "assistant", text: "I can't help with that.", toolCalls: [], metadata: {} }],
    },
    {
      name: "a refusal beside text stays in extra",
      records: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Partly.", annotations: [] }, { type: "refusal", refusal: "Not the rest." }] }],
      expected: [{ id: "item-0", type: "assistant", role: "assistant", text: "Partly.", toolCalls: [], metadata: { extra: { refusal: "Not the rest." } } }],
    },
    {
      name: "a function call: call_id is the call's id, arguments as an object become JSON text, its namespace in the sequence, other fields in extra",
      records: [{ type: "function_call", call_id: "call_1", name: "search", arguments: { q: "x" }, namespace: "web", caller: { type: "direct" } }],
      expected: [
        {
          id: "item-0",
          type: "assistant",
          role: "assistant",
          text: "",
          toolCalls: [{ id: "call_1", name: "search", arguments: '{"q":"x"}', kind: "tool" }],
          metadata: { extra: { caller: { type: "direct" }, openaiResponses: { sequence: [{ type: "function_call", call_id: "call_1", namespace: "web" }] } } },
        },
      ],
    },
    {
      name: "a function call output names its own tool; its id and status go to extra",
      records: [{ type: "function_call_output", id: "fco_1", call_id: "call_1", name: "search", output: "found", status: "completed" }],
      expected: [{ id: "item-0", type: "tool-result", role: "tool", callId: "call_1", toolName: "search", output: "found", isError: false, kind: "tool", metadata: { extra: { id: "fco_1", status: "completed" } } }],
    },
    {
      name: "an output given as parts: its input_text parts and a marker for each image or file, the list kept in outputParts",
      records: [
        {
          type: "function_call_output",
          call_id: "call_1",
          output: [
            { type: "input_text", text: "page 1" },
            { type: "input_image", image_url: "https://example.com/p1.png", detail: "auto" },
            { type: "input_text", text: "page 2" },
          ],
        },
      ],
      expected: [
        {
          id: "item-0",
          type: "tool-result",
          role: "tool",
          callId: "call_1",
          output: "page 1\n[image]\npage 2",
          isError: false,
          kind: "tool",
          metadata: {
            extra: {
              openaiResponses: {
                outputParts: [
                  { type: "input_text", text: "page 1" },
                  { type: "input_image", image_url: "https://example.com/p1.png", detail: "auto" },
                  { type: "input_text", text: "page 2" },
                ],
              },
            },
          },
        },
      ],
    },
    {
      name: "an output that is only an image or a file: a marker says so (no output would be blank, and blank outputs are replaced)",
      records: [
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_image", detail: "auto", file_id: "file-1" }] },
        { type: "function_call_output", call_id: "call_2", output: [{ type: "input_file", filename: "report.pdf", file_url: "https://example.com/r.pdf" }, { type: "input_file", file_id: "file-2" }] },
      ],
      expected: [
        {
          id: "item-0",
          type: "tool-result",
          role: "tool",
          callId: "call_1",
          output: "[image]",
          isError: false,
          kind: "tool",
          metadata: { extra: { openaiResponses: { outputParts: [{ type: "input_image", detail: "auto", file_id: "file-1" }] } } },
        },
        {
          id: "item-1",
          type: "tool-result",
          role: "tool",
          callId: "call_2",
          output: "[file: report.pdf]\n[file]",
          isError: false,
          kind: "tool",
          metadata: {
            extra: { openaiResponses: { outputParts: [{ type: "input_file", filename: "report.pdf", file_url: "https://example.com/r.pdf" }, { type: "input_file", file_id: "file-2" }] } },
          },
        },
      ],
    },
    {
      name: "a refusal message: its refusal part kept in its reference, with its id",
      records: [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "refusal", refusal: "No." }] }],
      expected: [
        {
          id: "item-0",
          type: "assistant",
          role: "assistant",
          text: "No.",
          toolCalls: [],
          metadata: { extra: { openaiResponses: { sequence: [{ type: "message", id: "msg_1", status: "completed", content: [{ type: "refusal", refusal: "No." }] }] } } },
        },
      ],
    },
    {
      name: "a reasoning item alone: its summary texts joined, the item in the sequence",
      records: [reasoning("rs_1", "First.", "Second.")],
      expected: [
        {
          id: "item-0",
          type: "assistant",
          role: "assistant",
          text: "",
          toolCalls: [],
          reasoning: [{ text: "First.\nSecond." }],
          metadata: { extra: { openaiResponses: { sequence: [reasoning("rs_1", "First.", "Second.")] } } },
        },
      ],
    },
  ])("$name", ({ records, expected }) => {
    expect(importOpenAIResponsesItems(records)).toStrictEqual(expected);
  });

  // How stored items group into items: [record index → item id] and each item's type, text, calls and sequence.
  test.for<{ name: string; records: unknown[]; expected: Array<Record<string, unknown>> }>([
    {
      name: "reasoning + message: one assistant item",
      records: [user("Hi"), reasoning("rs_1", "Greet."), outputMessage("msg_1", "Hello!")],
      expected: [
        { id: "item-0", type: "user", text: "Hi" },
        {
          id: "item-1",
          type: "assistant",
          text: "Hello!",
          calls: [],
          reasoning: ["Greet."],
          sequence: [reasoning("rs_1", "Greet."), messageReference("msg_1", "Hello!")],
        },
      ],
    },
    {
      name: "reasoning + function_call + function_call: one assistant item with parallel calls",
      records: [user("Two files"), reasoning("rs_1"), call("call_a", "read_file", "fc_a"), call("call_b", "read_file", "fc_b"), output("call_a", "A"), output("call_b", "B")],
      expected: [
        { id: "item-0", type: "user", text: "Two files" },
        {
          id: "item-1",
          type: "assistant",
          text: "",
          calls: ["call_a", "call_b"],
          reasoning: [""],
          sequence: [reasoning("rs_1"), { type: "function_call", call_id: "call_a", id: "fc_a", status: "completed" }, { type: "function_call", call_id: "call_b", id: "fc_b", status: "completed" }],
        },
        { id: "item-4", type: "tool-result", callId: "call_a", toolName: "read_file", output: "A" },
        { id: "item-5", type: "tool-result", callId: "call_b", toolName: "read_file", output: "B" },
      ],
    },
    {
      name: "message + function_call without ids: the default order, no sequence",
      records: [user("Go"), { type: "message", role: "assistant", content: "Reading." }, call("call_a"), output("call_a", "A")],
      expected: [
        { id: "item-0", type: "user", text: "Go" },
        { id: "item-1", type: "assistant", text: "Reading.", calls: ["call_a"] },
        { id: "item-3", type: "tool-result", callId: "call_a", toolName: "read_file", output: "A" },
      ],
    },
    {
      name: "a function_call before the message: the sequence keeps the order",
      records: [user("Go"), call("call_a"), { role: "assistant", content: "Reading." }],
      expected: [
        { id: "item-0", type: "user", text: "Go" },
        { id: "item-1", type: "assistant", text: "Reading.", calls: ["call_a"], sequence: [{ type: "function_call", call_id: "call_a" }, { type: "message", content: "Reading." }] },
      ],
    },
    {
      name: "two turns back to back, separated by a user message",
      records: [user("One"), outputMessage("msg_1", "First."), user("Two"), outputMessage("msg_2", "Second.")],
      expected: [
        { id: "item-0", type: "user", text: "One" },
        { id: "item-1", type: "assistant", text: "First.", calls: [], sequence: [messageReference("msg_1", "First.")] },
        { id: "item-2", type: "user", text: "Two" },
        { id: "item-3", type: "assistant", text: "Second.", calls: [], sequence: [messageReference("msg_2", "Second.")] },
      ],
    },
    {
      name: "a call, its output, then the answer: two turns",
      records: [user("Go"), call("call_a"), output("call_a", "A"), { role: "assistant", content: "Done." }],
      expected: [
        { id: "item-0", type: "user", text: "Go" },
        { id: "item-1", type: "assistant", text: "", calls: ["call_a"] },
        { id: "item-2", type: "tool-result", callId: "call_a", toolName: "read_file", output: "A" },
        { id: "item-3", type: "assistant", text: "Done.", calls: [] },
      ],
    },
    {
      name: "two messages in one turn: their texts joined, both in the sequence with their own content",
      records: [user("Go"), { ...outputMessage("msg_1", "Looking."), phase: "commentary" }, { ...outputMessage("msg_2", "Found it."), phase: "final_answer" }],
      expected: [
        { id: "item-0", type: "user", text: "Go" },
        {
          id: "item-1",
          type: "assistant",
          text: "Looking.\nFound it.",
          calls: [],
          sequence: [
            { ...messageReference("msg_1", "Looking."), phase: "commentary" },
            { ...messageReference("msg_2", "Found it."), phase: "final_answer" },
          ],
        },
      ],
    },
    {
      name: "an item of another type inside a turn: in the sequence, at its place",
      records: [user("News?"), reasoning("rs_1"), { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "news" } }, outputMessage("msg_1", "Here.")],
      expected: [
        { id: "item-0", type: "user", text: "News?" },
        {
          id: "item-1",
          type: "assistant",
          text: "Here.",
          calls: [],
          reasoning: [""],
          sequence: [reasoning("rs_1"), { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "news" } }, messageReference("msg_1", "Here.")],
        },
      ],
    },
    {
      name: "items of other types outside turns: before the next item, after the last",
      records: [
        { type: "compaction", id: "cmp_1", encrypted_content: "enc" },
        user("Go on"),
        { role: "assistant", content: "Yes." },
        { type: "mcp_list_tools", id: "mcpl_1", server_label: "docs", tools: [] },
        { type: "item_reference", id: "msg_9" },
        user("And?"),
        { role: "assistant", content: "Done." },
        { id: "msg_10" },
      ],
      expected: [
        { id: "item-1", type: "user", text: "Go on", before: [{ type: "compaction", id: "cmp_1", encrypted_content: "enc" }] },
        { id: "item-2", type: "assistant", text: "Yes.", calls: [] },
        {
          id: "item-5",
          type: "user",
          text: "And?",
          before: [
            { type: "mcp_list_tools", id: "mcpl_1", server_label: "docs", tools: [] },
            { type: "item_reference", id: "msg_9" },
          ],
        },
        { id: "item-6", type: "assistant", text: "Done.", calls: [], after: [{ id: "msg_10" }] },
      ],
    },
    {
      name: "a built-in call that ends a turn belongs to it, after its reasoning",
      records: [user("News?"), reasoning("rs_1"), outputMessage("msg_1", "Searching."), reasoning("rs_2"), { type: "web_search_call", id: "ws_1", status: "completed" }, user("And?")],
      expected: [
        { id: "item-0", type: "user", text: "News?" },
        {
          id: "item-1",
          type: "assistant",
          text: "Searching.",
          calls: [],
          reasoning: ["", ""],
          sequence: [reasoning("rs_1"), messageReference("msg_1", "Searching."), reasoning("rs_2"), { type: "web_search_call", id: "ws_1", status: "completed" }],
        },
        { id: "item-5", type: "user", text: "And?" },
      ],
    },
    {
      name: "reasoning and built-in calls with no message or function call: no item, sent with the next one (after the last)",
      records: [
        user("News?"),
        reasoning("rs_1"),
        { type: "web_search_call", id: "ws_1", status: "completed" },
        user("More?"),
        reasoning("rs_2"),
        { type: "web_search_call", id: "ws_2", status: "completed" },
      ],
      expected: [
        { id: "item-0", type: "user", text: "News?" },
        { id: "item-3", type: "user", text: "More?", before: [reasoning("rs_1"), { type: "web_search_call", id: "ws_1", status: "completed" }], after: [reasoning("rs_2"), { type: "web_search_call", id: "ws_2", status: "completed" }] },
      ],
    },
  ])("groups $name", ({ records, expected }) => {
    expect(importOpenAIResponsesItems(records).map(summary)).toStrictEqual(expected);
  });

  test("fields of a turn made of several stored items are named after their record; content parts stay in their message's reference", () => {
    const logprobs = [{ type: "output_text", text: "x", logprobs: [{ token: "x" }] }];
    const [, turn] = importOpenAIResponsesItems([user("Go"), { ...call("call_a"), caller: { type: "direct" } }, { type: "message", role: "assistant", content: logprobs }]);
    expect(turn?.metadata.extra).toStrictEqual({
      "[1].caller": { type: "direct" },
      openaiResponses: { sequence: [{ type: "function_call", call_id: "call_a" }, { type: "message", content: logprobs }] },
    });
  });

  test("a content part's fields are kept in extra when the turn keeps no sequence", () => {
    const [turn] = importOpenAIResponsesItems([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "x", logprobs: [{ token: "x" }] }, { type: "output_audio", data: "AA" }] }]);
    expect(turn?.metadata.extra).toStrictEqual({ "content[0].logprobs": [{ token: "x" }], parts: [{ type: "output_audio", data: "AA" }] });
  });

  test("tool outputs take their tool name from the call they answer; ids use idPrefix", () => {
    const items = importOpenAIResponsesItems([user("Hi"), call("call_a", "search"), call("", "list"), output("call_a", "1"), output("", "2"), output("call_unknown", "3")], { idPrefix: "conv1/" });
    expect(items.map((item) => [item.id, item.type === "tool-result" ? item.toolName : undefined])).toStrictEqual([
      ["conv1/0", undefined],
      ["conv1/1", undefined],
      ["conv1/3", "search"],
      ["conv1/4", undefined],
      ["conv1/5", undefined],
    ]);
  });

  test("the stored items are not changed, and a deep-frozen history imports", () => {
    const history = structuredClone(REASONING_TOOL_LOOP) as Array<Record<string, unknown>>;
    const before = JSON.stringify(history);
    const items = importOpenAIResponsesItems(history);
    expect(JSON.stringify(history)).toBe(before);
    expect(importOpenAIResponsesItems(deepFreeze(structuredClone(REASONING_TOOL_LOOP)))).toStrictEqual(items);
  });

  test("item ids stay the same while the log grows", () => {
    fc.assert(
      fc.property(neutralExchanges, fc.nat(), (exchanges, cut) => {
        const records = responsesItemsOf(exchanges);
        const ids = (list: ReadonlyArray<unknown>) => importOpenAIResponsesItems(list).map((item) => item.id);
        const all = ids(records);
        const prefix = ids(records.slice(0, cut % (records.length + 1)));
        expect(all.slice(0, prefix.length)).toStrictEqual(prefix);
      }),
      { numRuns: 200 },
    );
  });

  describe("a Chat Completions history and the same Responses history give the same text, calls and pairing", () => {
    const comparable = (items: ReadonlyArray<Item>) => items.map(({ id: _id, metadata: _metadata, ...rest }) => rest);

    test("a reasoning tool loop (reasoning has no place in Chat Completions)", () => {
      const fromResponses = importOpenAIResponsesItems(REASONING_TOOL_LOOP);
      const fromChat = importOpenAIMessages(REASONING_TOOL_LOOP_AS_CHAT);
      expect(comparable(fromResponses).map((item) => (item.type === "assistant" ? { ...item, reasoning: undefined } : item))).toStrictEqual(
        comparable(fromChat).map((item) => (item.type === "assistant" ? { ...item, reasoning: undefined } : item)),
      );
      expect(fromResponses.flatMap((item) => (item.type === "assistant" ? (item.reasoning ?? []) : []))).toStrictEqual([{ text: "Two cities: two calls." }, { text: "" }]);
    });

    test("any tool conversation", () => {
      fc.assert(
        fc.property(neutralExchanges, (exchanges) => {
          const fromResponses = importOpenAIResponsesItems(responsesItemsOf(exchanges));
          const fromChat = importOpenAIMessages(chatMessagesOf(exchanges));
          expect(comparable(fromResponses)).toStrictEqual(comparable(fromChat));
          // Without ids, reasoning or other items, nothing is kept for the Responses renderer.
          expect(fromResponses.every((item) => item.metadata.extra === undefined)).toBe(true);
        }),
        { numRuns: 300 },
      );
    });

    test("the pipeline builds the same Chat Completions request from both", async () => {
      const pipeline = createPipeline();
      const fromResponses = await pipeline.build(importOpenAIResponsesItems(REASONING_TOOL_LOOP));
      const fromChat = await pipeline.build(importOpenAIMessages(REASONING_TOOL_LOOP_AS_CHAT));
      expect(fromResponses.request).toStrictEqual(fromChat.request);
    });
  });

  test.for<{ name: string; input: unknown; index: number; id?: string; path: Array<string | number>; message: string }>([
    { name: "input that is not an array", input: { input: [] }, index: 0, path: [], message: "expected an array of Responses items, got an object" },
    { name: "an item that is not an object", input: [user("hi"), "hello"], index: 1, path: [], message: "expected an object, got a string" },
    { name: "a null item", input: [null], index: 0, path: [], message: "expected an object, got null" },
    { name: "an object with neither type nor role", input: [{ content: "hi" }], index: 0, path: [], message: 'expected a Responses item: an object with a "type", or a message with a "role"' },
    { name: "a type that is not a string", input: [{ type: 3, content: "hi" }], index: 0, path: ["type"], message: "expected the item type (a string), got 3" },
    { name: "a message without a role", input: [{ type: "message", content: "hi" }], index: 0, path: ["role"], message: "a message needs a role" },
    { name: "a Chat Completions tool message", input: [{ role: "tool", tool_call_id: "c", content: "x" }], index: 0, path: ["role"], message: 'expected one of "user", "system", "developer", "assistant", got "tool"' },
    { name: "content of the wrong type", input: [{ role: "user", content: 42 }], index: 0, path: ["content"], message: "expected a string or an array of content parts, got 42" },
    { name: "a content part that is not an object", input: [{ role: "user", content: ["hi"] }], index: 0, path: ["content", 0], message: "expected a content part object, got a string" },
    { name: "a content part without a type", input: [{ role: "user", content: [{ text: "hi" }] }], index: 0, path: ["content", 0, "type"], message: "expected the part type (a string), got nothing" },
    { name: "an input_text part without text", input: [{ role: "user", content: [{ type: "input_text" }] }], index: 0, path: ["content", 0, "text"], message: 'an input_text part needs the field "text"' },
    {
      name: "an output_text part whose text is not a string",
      input: [outputMessage("msg_1", "x"), { ...outputMessage("msg_2", ""), content: [{ type: "output_text", text: 5 }] }],
      index: 1,
      id: "msg_2",
      path: ["content", 0, "text"],
      message: "expected a string, got 5",
    },
    { name: "a function_call without call_id", input: [{ type: "function_call", id: "fc_1", name: "f", arguments: "{}" }], index: 0, id: "fc_1", path: ["call_id"], message: "a function_call needs its call_id" },
    { name: "a function_call without name", input: [{ type: "function_call", id: "fc_1", call_id: "c1", arguments: "{}" }], index: 0, id: "fc_1", path: ["name"], message: "a function_call needs the function name" },
    { name: "a function_call with an empty name", input: [{ type: "function_call", call_id: "c1", name: "" }], index: 0, path: ["name"], message: "expected a non-empty string, got an empty string" },
    { name: "a function_call whose arguments are a number", input: [{ type: "function_call", call_id: "c1", name: "f", arguments: 1 }], index: 0, path: ["arguments"], message: "expected JSON text or an object, got 1" },
    { name: "a function_call_output without call_id", input: [{ type: "function_call_output", output: "x" }], index: 0, path: ["call_id"], message: "a function_call_output needs the call_id of the function_call it answers" },
    { name: "a function_call_output without output", input: [{ type: "function_call_output", call_id: "c1" }], index: 0, path: ["output"], message: "a function_call_output needs its output (a string or a list of content parts)" },
    { name: "an output of the wrong type", input: [{ type: "function_call_output", call_id: "c1", output: { text: "x" } }], index: 0, path: ["output"], message: "expected a string or an array of content parts, got an object" },
    { name: "an output part without text", input: [{ type: "function_call_output", call_id: "c1", output: [{ type: "input_text" }] }], index: 0, path: ["output", 0, "text"], message: 'an input_text part needs the field "text" (a string), got nothing' },
    { name: "a reasoning item without id", input: [{ type: "reasoning", summary: [] }], index: 0, path: ["id"], message: "a reasoning item needs its id (rs_…), which the API asks for when it is sent back" },
    { name: "a reasoning summary that is not a list", input: [{ type: "reasoning", id: "rs_1", summary: "x" }], index: 0, id: "rs_1", path: ["summary"], message: "expected an array, got a string" },
    {
      name: "a reasoning summary part without text",
      input: [{ type: "reasoning", id: "rs_1", summary: [{ type: "summary_text" }] }],
      index: 0,
      id: "rs_1",
      path: ["summary", 0],
      message: 'expected a summary part { type: "summary_text", text }, got a part whose text is nothing',
    },
    {
      name: "a log of items of other types only",
      input: [{ type: "compaction", id: "cmp_1", encrypted_content: "x" }],
      index: 0,
      id: "cmp_1",
      path: [],
      message: "no message, function call or output in the log to keep this item with: a log needs at least one of those",
    },
  ])("rejects $name", ({ input, index, id, path, message }) => {
    const error = catchInvalidInput(() => importOpenAIResponsesItems(input));
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "Responses item", index, id, path });
    expect(error.issues).toStrictEqual([{ index, id, path, message }]);
  });

  test("lists every problem of the input in one error, naming stored ids", () => {
    const error = catchInvalidInput(() =>
      importOpenAIResponsesItems([user("Go"), { type: "reasoning", id: "rs_1", summary: 1 }, { type: "function_call", id: "fc_1", call_id: "c1" }, { type: "function_call_output", call_id: "c1" }]),
    );
    expect(error.issues).toStrictEqual([
      { index: 1, id: "rs_1", path: ["summary"], message: "expected an array, got 1" },
      { index: 2, id: "fc_1", path: ["name"], message: "a function_call needs the function name" },
      { index: 3, id: undefined, path: ["output"], message: "a function_call_output needs its output (a string or a list of content parts)" },
    ]);
    expect(error.message).toContain('Invalid Responses item[1] (id "rs_1"), field summary: expected an array, got 1');
  });

  test("rejects options that do not validate", () => {
    expect(() => importOpenAIResponsesItems([], { idPrefix: 5 as unknown as string })).toThrow(expect.objectContaining({ name: "PluginOptionsError", code: "OPTIONS_INVALID" }));
  });

  test("any input either imports or throws InvalidInputError, never a TypeError", () => {
    const keys = ["type", "role", "content", "text", "id", "status", "phase", "call_id", "name", "arguments", "output", "summary", "encrypted_content", "image_url", "file_id", "file_data", "detail", "refusal", "annotations"];
    const labels = ["message", "function_call", "function_call_output", "reasoning", "web_search_call", "user", "assistant", "developer", "input_text", "output_text", "input_image", "input_file", "refusal", "summary_text", "commentary", "auto"];
    fc.assert(fc.property(arbitraryInput(keys, labels), (input) => returnsOrThrowsInvalidInput(() => importOpenAIResponsesItems(input))), { numRuns: 1000 });
  });
});

/** What the grouping tests compare: the item's place, text, calls and Responses extra. */
function summary(item: Item): Record<string, unknown> {
  const responses = item.metadata.extra?.openaiResponses as Record<string, unknown> | undefined;
  const shape: Record<string, unknown> = { id: item.id, type: item.type };
  if (item.type === "user") shape.text = item.text;
  if (item.type === "assistant") {
    shape.text = item.text;
    shape.calls = item.toolCalls.map((toolCall) => toolCall.id);
    if (item.reasoning !== undefined) shape.reasoning = item.reasoning.map((entry) => entry.text);
  }
  if (item.type === "tool-result") Object.assign(shape, { callId: item.callId, toolName: item.toolName, output: item.output });
  for (const key of ["sequence", "before", "after"]) if (responses?.[key] !== undefined) shape[key] = responses[key];
  return shape;
}
